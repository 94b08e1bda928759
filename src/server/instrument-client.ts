import type { PartnerClient } from '../api/index.js';
import type { Metrics } from './metrics.js';

/** The error's stable code when it has one (ApiError and friends), else its class name. */
function kindOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return 'unknown';
}

/** Wraps the Partner API client so every failed call counts toward `upstreamErrors`. */
export function instrumentClient(client: PartnerClient, metrics: Metrics): PartnerClient {
  const count = (operation: string, error: unknown): never => {
    metrics.upstreamErrors.inc({ operation, kind: kindOf(error) });
    throw error;
  };
  // Spread keeps every other member (the client is a plain object), so it survives additions.
  return {
    ...client,
    call: ((name, ...args) =>
      client
        .call(name, ...args)
        .catch((error: unknown) => count(name, error))) as PartnerClient['call'],
    download: ((name, ...args) =>
      client
        .download(name, ...args)
        .catch((error: unknown) => count(name, error))) as PartnerClient['download'],
  };
}
