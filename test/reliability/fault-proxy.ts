import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the proxy misbehaves: not at all, or one of the failures an insurer can show. */
export type Fault =
  | 'none'
  /** The connection is dropped without an answer, as when the insurer is down. */
  | 'down'
  /** No answer until {@link FaultProxy.release} is called, as when the insurer hangs. */
  | 'slow'
  | 'status500'
  | 'status401'
  /** 200 with a body that is not JSON. */
  | 'malformed';

/** An HTTP proxy in front of the sandbox insurer that fails on demand. */
export interface FaultProxy {
  readonly url: string;
  /** Requests that reached the proxy while each fault was set. */
  readonly hits: Record<Fault, number>;
  setFault(fault: Fault): void;
  /** Lets every held ('slow') request through to the upstream. */
  release(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `upstreamOrigin` (scheme, host and port) on a free loopback port. */
export async function startFaultProxy(upstreamOrigin: string): Promise<FaultProxy> {
  const upstream = new URL(upstreamOrigin);
  let fault: Fault = 'none';
  let held: Array<() => void> = [];
  const hits: Record<Fault, number> = {
    none: 0,
    down: 0,
    slow: 0,
    status500: 0,
    status401: 0,
    malformed: 0,
  };

  const forward = (
    incoming: IncomingMessage,
    body: Buffer,
    reply: (r: IncomingMessage) => void,
  ) => {
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

  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const current = fault;
      hits[current] += 1;
      const body = Buffer.concat(chunks);
      const pass = () =>
        forward(incoming, body, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        });
      const json = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      switch (current) {
        case 'none':
          pass();
          return;
        case 'down':
          incoming.socket.destroy();
          return;
        case 'slow':
          held.push(pass);
          return;
        case 'status500':
          json(500, { status: 500, message: 'Internal server error', errors: {} });
          return;
        case 'status401':
          json(401, { status: 401, message: 'Unauthorized', errors: {} });
          return;
        case 'malformed':
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"data": [ {"id": ');
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    setFault: (next) => {
      fault = next;
    },
    release: () => {
      const waiting = held;
      held = [];
      for (const pass of waiting) pass();
    },
    close: async () => {
      const waiting = held;
      held = [];
      for (const pass of waiting) pass();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
