import { z } from 'zod';

/** One `host:port` (`[::1]:6379` for IPv6), parsed into what ioredis takes. */
export const HostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/, 'each entry must be host:port')
  .transform((value) => {
    const split = value.lastIndexOf(':');
    return {
      host: value.slice(0, split).replace(/^\[(.*)\]$/, '$1'),
      port: Number(value.slice(split + 1)),
    };
  })
  .refine((address) => address.port >= 1 && address.port <= 65_535, {
    error: 'each port must be 1 to 65535',
  });
/** A parsed {@link HostPort}. */
export type HostPort = z.output<typeof HostPort>;

const Address = z.object({ host: z.string(), port: z.number().int() });

/**
 * Where Redis is: one URL, the Sentinels that know the current master of a named group, or some
 * nodes of a Cluster (the others are discovered from them).
 */
export const RedisTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.string() }),
  z.object({
    kind: z.literal('sentinel'),
    sentinels: z.array(Address).min(1),
    /** The master group name the Sentinels monitor (`sentinel monitor <name> …`). */
    name: z.string(),
    /** AUTH for the Sentinels themselves. */
    sentinelPassword: z.string().optional(),
    /** AUTH for the master and replicas they point to. */
    password: z.string().optional(),
  }),
  z.object({
    kind: z.literal('cluster'),
    /** Seed nodes; any reachable one hands out the slot map of the whole cluster. */
    nodes: z.array(Address).min(1),
    /** AUTH for every node. */
    password: z.string().optional(),
  }),
]);
/** {@link RedisTarget}'s type: `kind` says which. */
export type RedisTarget = z.infer<typeof RedisTarget>;
