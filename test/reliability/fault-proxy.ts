import { startLoopbackProxy } from './loopback-proxy.js';

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
  const proxy = await startLoopbackProxy(upstreamOrigin, (request) => {
    const current = fault;
    hits[current] += 1;
    switch (current) {
      case 'none':
        request.passThrough();
        return;
      case 'down':
        request.cut();
        return;
      case 'slow':
        held.push(() => request.passThrough());
        return;
      case 'status500':
        request.json(500, { status: 500, message: 'Internal server error', errors: {} });
        return;
      case 'status401':
        request.json(401, { status: 401, message: 'Unauthorized', errors: {} });
        return;
      case 'malformed':
        request.raw(200, '{"data": [ {"id": ');
        return;
    }
  });
  const releaseHeld = () => {
    const waiting = held;
    held = [];
    for (const pass of waiting) pass();
  };
  return {
    url: proxy.origin,
    hits,
    setFault: (next) => {
      fault = next;
    },
    release: releaseHeld,
    close: async () => {
      releaseHeld();
      await proxy.close();
    },
  };
}
