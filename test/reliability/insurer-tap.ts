import { startLoopbackProxy } from './loopback-proxy.js';

/**
 * What the tap does with one request: pass it on; answer 503 without passing it on (the insurer
 * never sees it); pass it on and answer 503 instead of the insurer's answer (a gateway that gave
 * up after the insurer acted); pass it on and cut the connection (the answer is lost); answer
 * 404 without passing it on (a lookup that lags behind the insurer's pay); or cut the connection
 * without passing it on (the insurer is down).
 */
export type TapAction = 'pass' | 'refuse503' | 'pass503' | 'cut' | 'notFound' | 'down';

/** One request as the tap saw it. */
export interface TapRequest {
  readonly method: string;
  readonly path: string;
  /** The body's `reference`, when it is JSON carrying one (pay requests). */
  readonly reference: string | undefined;
  readonly action: TapAction;
}

/** A fault-injecting HTTP tap in front of an insurer, with the log of every request. */
export interface InsurerTap {
  /** The tap's origin; append the insurer's path prefix (`/api/v1`). */
  readonly origin: string;
  readonly requests: TapRequest[];
  /** Decides each request's fate; `pass` when unset. */
  decide(rule: (request: Omit<TapRequest, 'action'>) => TapAction): void;
  close(): Promise<void>;
}

/** True for `POST …/payments/{quoteId}/pay`. */
export const isPay = (request: Pick<TapRequest, 'method' | 'path'>): boolean =>
  request.method === 'POST' && /\/payments\/[^/]+\/pay$/.test(request.path);

/** True for `GET …/payments/transactions/{reference}/status`. */
export const isLookup = (request: Pick<TapRequest, 'method' | 'path'>): boolean =>
  request.method === 'GET' && /\/payments\/transactions\/[^/]+\/status$/.test(request.path);

function referenceOf(body: Buffer): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const reference = (parsed as { reference?: unknown } | null)?.reference;
    return typeof reference === 'string' ? reference : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a tap to `upstreamOrigin` on a free loopback port. */
export async function startInsurerTap(upstreamOrigin: string): Promise<InsurerTap> {
  const requests: TapRequest[] = [];
  let rule: (request: Omit<TapRequest, 'action'>) => TapAction = () => 'pass';
  const unavailable = { status: 503, message: 'Service unavailable', errors: {} };
  const proxy = await startLoopbackProxy(upstreamOrigin, (request) => {
    const { incoming, body } = request;
    const seen = {
      method: incoming.method ?? 'GET',
      path: (incoming.url ?? '').split('?')[0] ?? '',
      reference: referenceOf(body),
    };
    const action = rule(seen);
    requests.push({ ...seen, action });
    switch (action) {
      case 'pass':
        request.passThrough();
        return;
      case 'refuse503':
        request.json(503, unavailable);
        return;
      case 'pass503':
        request.forward((answer) => {
          answer.resume();
          answer.on('end', () => request.json(503, unavailable));
        });
        return;
      case 'cut':
        request.forward((answer) => {
          answer.resume();
          answer.on('end', () => request.cut());
        });
        return;
      case 'notFound':
        request.json(404, { status: 404, message: 'Transaction not found', errors: {} });
        return;
      case 'down':
        request.cut();
        return;
    }
  });
  return {
    origin: proxy.origin,
    requests,
    decide(next) {
      rule = next;
    },
    close: () => proxy.close(),
  };
}
