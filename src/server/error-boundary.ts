import type { FastifyError, FastifyInstance } from 'fastify';
import type { Logger } from '../log/index.js';

/**
 * The server's one error boundary: every error a route throws is logged with its route and
 * request id, and answered politely — 4xx keeps the client's mistake visible, anything else is a
 * 500 with no stack trace or internal message. USSD gateways get text they can show a caller.
 */
export function installErrorBoundary(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    const route = request.routeOptions.url ?? 'unknown';
    const context = { route, method: request.method, requestId: request.id, status };
    if (status >= 500) logger.error({ ...context, err: error }, 'request failed');
    else logger.info({ ...context, code: error.code }, 'request refused');

    const clientMessage =
      status >= 500
        ? 'Sorry, something went wrong on our side. Please try again.'
        : clientError(status, error);
    if (route.startsWith('/ussd/africastalking')) {
      return reply.code(status).type('text/plain; charset=utf-8').send(`END ${clientMessage}`);
    }
    if (route.startsWith('/ussd/hubtel')) {
      return reply.code(status).send({ Type: 'Release', Message: clientMessage });
    }
    return reply
      .code(status)
      .send({ error: status >= 500 ? 'internal_error' : 'bad_request', message: clientMessage });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: 'not_found',
      message: `No route ${request.method} ${request.url.split('?')[0]}.`,
    }),
  );
}

/** A short, safe description of a client error (fastify's own codes carry no internal detail). */
function clientError(status: number, error: FastifyError): string {
  if (status === 413) return 'The request is too large.';
  if (status === 415) return 'Unsupported content type.';
  if (
    error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
  ) {
    return 'The request body is not valid JSON.';
  }
  return 'The request could not be understood.';
}
