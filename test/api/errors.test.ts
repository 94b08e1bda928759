import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnavailableError,
  apiErrorFromResponse,
  classifyApiError,
  ResponseShapeError,
  ValidationError,
} from '../../src/api/index.js';

const answered = (status: number) => apiErrorFromResponse({ status, operation: 'x', rawBody: '' });

describe('apiErrorFromResponse', () => {
  it('maps each status to one class and one stable code', () => {
    expect(answered(404)).toBeInstanceOf(ApiNotFoundError);
    expect(answered(404).code).toBe('API_NOT_FOUND');
    expect(answered(503)).toBeInstanceOf(ApiServerError);
    expect(answered(503).code).toBe('API_UNAVAILABLE');
    expect(answered(502).code).toBe('API_SERVER_ERROR');
    expect(answered(418).constructor).toBe(ApiError);
    expect(answered(418).code).toBe('API_ERROR');
  });

  it('gives an ApiError built by hand the code its status means', () => {
    expect(new ApiError({ status: 404, operation: 'x', rawBody: '' }).code).toBe('API_NOT_FOUND');
  });
});

describe('classifyApiError', () => {
  it('classifies answers by code, never by reading the status', () => {
    expect(classifyApiError(answered(404))).toBe('notFound');
    expect(classifyApiError(answered(401))).toBe('denied');
    expect(classifyApiError(answered(403))).toBe('denied');
    for (const status of [400, 409, 422])
      expect(classifyApiError(answered(status))).toBe('rejected');
    for (const status of [429, 500, 503]) {
      expect(classifyApiError(answered(status))).toBe('unavailable');
    }
    expect(classifyApiError(answered(418))).toBe('unknown');
  });

  it('classifies failures without an answer', () => {
    expect(classifyApiError(new ApiTimeoutError({ operation: 'x', timeoutMs: 10 }))).toBe(
      'timeout',
    );
    expect(classifyApiError(new ApiNetworkError({ operation: 'x', sent: false }))).toBe(
      'unavailable',
    );
    expect(classifyApiError(new ApiUnavailableError({ operation: 'x', retryAfterMs: 1_000 }))).toBe(
      'unavailable',
    );
    expect(
      classifyApiError(new ResponseShapeError({ operation: 'x', path: 'id', message: 'bad' })),
    ).toBe('unavailable');
    expect(classifyApiError(new ValidationError({ field: 'phone', message: 'bad' }))).toBe(
      'rejected',
    );
  });

  it('leaves look-alikes unknown: a status field alone is not an insurer answer', () => {
    expect(classifyApiError(Object.assign(new Error('x'), { status: 404 }))).toBe('unknown');
    expect(classifyApiError(undefined)).toBe('unknown');
  });
});
