import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the stub server received. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** How the stub answers one request. */
export type StubHandler = (request: SeenRequest, response: ServerResponse) => void;

/** A local HTTP server answering from a queue of handlers (the last one repeats). */
export interface HttpStub {
  readonly baseUrl: string;
  readonly requests: SeenRequest[];
  /** Answers the next requests with these handlers in order; the last keeps answering. */
  respond(...handlers: StubHandler[]): void;
  close(): Promise<void>;
}

/** Answers with a JSON body. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): StubHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

/** Answers with a raw text body. */
export function text(status: number, body: string, contentType = 'text/plain'): StubHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(body);
  };
}

/** Never answers; the client's timeout or abort must end the call. */
export const hang: StubHandler = () => {};

/** Drops the connection without answering. */
export const drop: StubHandler = (_request, response) => {
  response.socket?.destroy();
};

/** Starts a stub on a free local port, under `/api/v1` like the real base URL. */
export async function startStub(): Promise<HttpStub> {
  const requests: SeenRequest[] = [];
  let handlers: StubHandler[] = [json(200, {})];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: SeenRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const handler = handlers.length > 1 ? handlers.shift() : handlers[0];
      handler?.(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    respond: (...next) => {
      handlers = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
