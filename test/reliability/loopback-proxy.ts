import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request to a {@link startLoopbackProxy}, read whole, and the ways to answer it. */
export interface ProxiedRequest {
  readonly incoming: IncomingMessage;
  readonly body: Buffer;
  /** Sends the request upstream; `reply` gets the upstream's answer. */
  forward(reply: (answer: IncomingMessage) => void): void;
  /** Sends the request upstream and its answer back unchanged. */
  passThrough(): void;
  /** Answers with `payload` as JSON, upstream never asked. */
  json(status: number, payload: unknown): void;
  /** Answers with raw text (a malformed body, say). */
  raw(status: number, text: string): void;
  /** Drops the connection without an answer. */
  cut(): void;
}

/** A loopback HTTP server in front of `upstreamOrigin` whose every request `handle` decides. */
export async function startLoopbackProxy(
  upstreamOrigin: string,
  handle: (request: ProxiedRequest) => void,
): Promise<{ readonly origin: string; close(): Promise<void> }> {
  const upstream = new URL(upstreamOrigin);
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = (reply: (answer: IncomingMessage) => void) => {
        const outgoing = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: incoming.method,
            path: incoming.url,
            headers: { ...incoming.headers, host: upstream.host },
          },
          reply,
        );
        outgoing.on('error', () => incoming.socket.destroy());
        outgoing.end(body);
      };
      handle({
        incoming,
        body,
        forward,
        passThrough: () =>
          forward((answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          }),
        json: (status, payload) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(payload));
        },
        raw: (status, text) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(text);
        },
        cut: () => incoming.socket.destroy(),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
