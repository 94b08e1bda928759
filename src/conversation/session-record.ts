import { z } from 'zod';
import { NOBODY, Principal } from '../access/index.js';
import { CHANNEL_NAMES } from './channel-names.js';
import type { Audience, FlowInput } from './flow.js';
import { Prompt } from './prompt.js';
import type { ChannelAddress } from './turn-engine.js';

const AudienceSchema = z.enum([
  'policyholder',
  'funeral-member',
  'staff',
]) satisfies z.ZodType<Audience>;

const ChannelAddressSchema = z.object({
  channel: z.enum(CHANNEL_NAMES),
  address: z.string(),
  locale: z.string(),
}) satisfies z.ZodType<ChannelAddress>;

/**
 * What the engine keeps per session between turns. The snapshot is always a settled one
 * (waiting for input), never one with an invoked call still running.
 */
export const SessionRecord = z.object({
  flowId: z.string(),
  flowVersion: z.number().int(),
  /** XState persisted snapshot of the current flow's actor. */
  snapshot: z.record(z.string(), z.unknown()),
  audience: AudienceSchema,
  locale: z.string(),
  callerPhone: z.string().optional(),
  /** Who is asking; records written before it existed read as nobody verified. */
  principal: Principal.optional(),
  address: ChannelAddressSchema.optional(),
  /** The Prompt the current state shows; re-shown after an interrupted turn. */
  prompt: Prompt,
  /** True when the prompt was produced after the channel's deadline and not shown yet. */
  unseen: z.boolean().optional(),
  /**
   * The flow finished after the channel's deadline: the record only keeps the closing prompt
   * until the user has seen it, then the session is deleted.
   */
  ended: z.boolean().optional(),
  /** A channel's own state for this session (USSD paging); opaque to the engine. */
  channel: z.string().optional(),
  updatedAt: z.string(),
});
/** What the engine keeps per session between turns. */
export type SessionRecord = z.infer<typeof SessionRecord>;

/** The FlowInput a record's flows were started with. */
export function flowInputOf(
  record: Pick<SessionRecord, 'audience' | 'locale' | 'callerPhone' | 'principal'>,
) {
  const base = {
    audience: record.audience,
    locale: record.locale,
    principal: record.principal ?? NOBODY,
  };
  const input: FlowInput =
    record.callerPhone === undefined ? base : { ...base, callerPhone: record.callerPhone };
  return input;
}

/** Parses a stored record; undefined when it is not JSON or not a record of this shape. */
export function parseSessionRecord(data: string): SessionRecord | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = SessionRecord.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
