import type { PartnerClientOptions } from '../api/index.js';
import type { Metrics } from './metrics.js';

/** The error's stable code when it has one (ApiError and friends), else its class name. */
function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
}

/**
 * The Partner API client's `onUpstreamError` hook: counts every failed exchange with the insurer
 * in `upstreamErrors`, by operation and error code.
 */
export function countUpstreamErrors(
  metrics: Pick<Metrics, 'upstreamErrors'>,
): NonNullable<PartnerClientOptions['onUpstreamError']> {
  return (operation, error) => {
    metrics.upstreamErrors.inc({ operation, code: codeOf(error) });
  };
}
