import { z } from 'zod';

/** Settings every bench server child reads from its environment. */
export const BenchServerEnv = z.object({
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Comma-separated `host:port` of a Redis Cluster's nodes; used instead of REDIS_URL when set. */
  REDIS_CLUSTER_NODES: z.string().optional(),
  /** Key prefix of this server's sessions, so the bench can delete them afterwards. */
  BENCH_PREFIX: z.string().min(1),
  /** The screens of the journey, one per step, as a JSON array of strings. */
  BENCH_SCREENS: z.string().transform((raw) => z.array(z.string()).min(1).parse(JSON.parse(raw))),
  /** Size of the snapshot the baseline reads and writes, in bytes. */
  BENCH_SNAPSHOT_BYTES: z.coerce.number().int().positive().default(1500),
});
/** Settings every bench server child reads from its environment. */
export type BenchServerEnv = z.infer<typeof BenchServerEnv>;

/** Seconds a bench session lives, like the real store's default TTL. */
export const SESSION_TTL_SECONDS = 900;

/** The fields of an Africa's Talking USSD request the bench servers read. */
export const UssdForm = z.object({
  sessionId: z.string().min(1),
  phoneNumber: z.string().default(''),
  serviceCode: z.string().default(''),
  text: z.string().default(''),
});

/** The USSD gateway secret the bench's insurechat server expects (header `x-ussd-secret`). */
export const BENCH_GATEWAY_SECRET = 'bench-gateway-secret';
