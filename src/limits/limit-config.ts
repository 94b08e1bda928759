import { z } from 'zod';

/**
 * What is limited: `sms` (any SMS a flow sends), `code` (one-time codes sent to prove a phone),
 * `payment` (a mobile-money approval prompt to a number other than the caller's own) and
 * `lookup` (a record looked up by a typed NRC, claim number or plate).
 */
export const LimitKind = z.enum(['sms', 'code', 'payment', 'lookup']);
/** One of {@link LimitKind}'s values. */
export type LimitKind = z.infer<typeof LimitKind>;

/** Every kind, in the order the limits table (docs/privacy-and-limits.md) lists them. */
export const LIMIT_KINDS: readonly LimitKind[] = LimitKind.options;

/** How many in one window; 0 means the window does not limit. */
const Count = z.number().int().min(0);

/** The most in an hour and in a day (each a fixed window from its first use), 0 for no limit. */
export const LimitWindows = z.object({ hour: Count, day: Count });
/** {@link LimitWindows}'s type. */
export type LimitWindows = z.infer<typeof LimitWindows>;

/** One kind's limits: from one caller, and to (or about) one target. */
export const KindLimits = z.object({ caller: LimitWindows, target: LimitWindows });
/** {@link KindLimits}'s type. */
export type KindLimits = z.infer<typeof KindLimits>;

/**
 * Every limit. `anonymous` caps each kind's per-caller windows for a caller nobody vouches for
 * (a chat that shared no contact): the smaller of the two counts.
 */
export const LimitsConfig = z.object({
  sms: KindLimits,
  code: KindLimits,
  payment: KindLimits,
  lookup: KindLimits,
  anonymous: LimitWindows,
});
/** {@link LimitsConfig}'s type. */
export type LimitsConfig = z.infer<typeof LimitsConfig>;

/**
 * The defaults: a person is reached at most 3 times an hour and 10 a day by SMS, 3 and 5 by
 * one-time codes, and gets at most 3 mobile-money prompts a day from other people's phones; a
 * caller sends at most 5 SMS or codes an hour and looks up at most 20 records an hour.
 */
export const DEFAULT_LIMITS: LimitsConfig = {
  sms: { caller: { hour: 5, day: 20 }, target: { hour: 3, day: 10 } },
  code: { caller: { hour: 5, day: 10 }, target: { hour: 3, day: 5 } },
  payment: { caller: { hour: 3, day: 10 }, target: { hour: 0, day: 3 } },
  lookup: { caller: { hour: 20, day: 50 }, target: { hour: 0, day: 0 } },
  anonymous: { hour: 3, day: 10 },
};

/** The environment variable of one count, e.g. `LIMIT_SMS_TARGET_HOUR`. */
export function limitVariable(
  kind: LimitKind | 'anonymous',
  scope: 'caller' | 'target' | undefined,
  window: keyof LimitWindows,
): string {
  return ['LIMIT', kind, scope, window]
    .filter((part) => part !== undefined)
    .join('_')
    .toUpperCase();
}

const count = (fallback: number) =>
  z.preprocess(
    (value) =>
      value === undefined || (typeof value === 'string' && value.trim() === '') ? fallback : value,
    z.coerce
      .number({ error: 'must be a whole number (0 for no limit)' })
      .int({ error: 'must be a whole number (0 for no limit)' })
      .min(0, { error: 'must be a whole number (0 for no limit)' }),
  );

const d = DEFAULT_LIMITS;

/** The limits' variables, spread into the server's environment schema; unset → the default. */
export const LimitsEnv = {
  LIMIT_SMS_CALLER_HOUR: count(d.sms.caller.hour),
  LIMIT_SMS_CALLER_DAY: count(d.sms.caller.day),
  LIMIT_SMS_TARGET_HOUR: count(d.sms.target.hour),
  LIMIT_SMS_TARGET_DAY: count(d.sms.target.day),
  LIMIT_CODE_CALLER_HOUR: count(d.code.caller.hour),
  LIMIT_CODE_CALLER_DAY: count(d.code.caller.day),
  LIMIT_CODE_TARGET_HOUR: count(d.code.target.hour),
  LIMIT_CODE_TARGET_DAY: count(d.code.target.day),
  LIMIT_PAYMENT_CALLER_HOUR: count(d.payment.caller.hour),
  LIMIT_PAYMENT_CALLER_DAY: count(d.payment.caller.day),
  LIMIT_PAYMENT_TARGET_HOUR: count(d.payment.target.hour),
  LIMIT_PAYMENT_TARGET_DAY: count(d.payment.target.day),
  LIMIT_LOOKUP_CALLER_HOUR: count(d.lookup.caller.hour),
  LIMIT_LOOKUP_CALLER_DAY: count(d.lookup.caller.day),
  LIMIT_LOOKUP_TARGET_HOUR: count(d.lookup.target.hour),
  LIMIT_LOOKUP_TARGET_DAY: count(d.lookup.target.day),
  LIMIT_ANONYMOUS_HOUR: count(d.anonymous.hour),
  LIMIT_ANONYMOUS_DAY: count(d.anonymous.day),
};

const LimitsVariables = z.object(LimitsEnv);
type LimitsVariables = z.infer<typeof LimitsVariables>;

/** The limits the validated variables describe. */
export function limitsConfigOf(e: LimitsVariables): LimitsConfig {
  return {
    sms: {
      caller: { hour: e.LIMIT_SMS_CALLER_HOUR, day: e.LIMIT_SMS_CALLER_DAY },
      target: { hour: e.LIMIT_SMS_TARGET_HOUR, day: e.LIMIT_SMS_TARGET_DAY },
    },
    code: {
      caller: { hour: e.LIMIT_CODE_CALLER_HOUR, day: e.LIMIT_CODE_CALLER_DAY },
      target: { hour: e.LIMIT_CODE_TARGET_HOUR, day: e.LIMIT_CODE_TARGET_DAY },
    },
    payment: {
      caller: { hour: e.LIMIT_PAYMENT_CALLER_HOUR, day: e.LIMIT_PAYMENT_CALLER_DAY },
      target: { hour: e.LIMIT_PAYMENT_TARGET_HOUR, day: e.LIMIT_PAYMENT_TARGET_DAY },
    },
    lookup: {
      caller: { hour: e.LIMIT_LOOKUP_CALLER_HOUR, day: e.LIMIT_LOOKUP_CALLER_DAY },
      target: { hour: e.LIMIT_LOOKUP_TARGET_HOUR, day: e.LIMIT_LOOKUP_TARGET_DAY },
    },
    anonymous: { hour: e.LIMIT_ANONYMOUS_HOUR, day: e.LIMIT_ANONYMOUS_DAY },
  };
}

/** What each kind counts, in the words of docs/privacy-and-limits.md. */
const COUNTED: Readonly<Record<LimitKind, string>> = {
  sms: 'every SMS a conversation sends: cover details to the phone on record, "SMS the holder" of a plate, certificate and claim-documents links',
  code: 'one-time codes sent by SMS to prove a phone',
  payment:
    'mobile-money approval prompts to a number other than the caller’s own (never limited: the caller’s own number)',
  lookup: 'a record looked up by a typed NRC, claim number or plate',
};

/** "3 an hour, 10 a day", "no limit" for 0 (the limits table's words for a kind's windows). */
function windowsText(windows: LimitWindows): string {
  const parts = [
    windows.hour > 0 ? `${windows.hour} an hour` : undefined,
    windows.day > 0 ? `${windows.day} a day` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : 'no limit';
}

/** The limits table of docs/privacy-and-limits.md: each kind's defaults and the variables that change them. */
export function limitsMarkdown(config: LimitsConfig = DEFAULT_LIMITS): string {
  const vars = (
    kind: LimitKind | 'anonymous',
    scopes: readonly ('caller' | 'target' | undefined)[],
  ) =>
    scopes
      .flatMap((scope) =>
        (['hour', 'day'] as const).map((w) => `\`${limitVariable(kind, scope, w)}\``),
      )
      .join(', ');
  const rows = LIMIT_KINDS.map(
    (kind) =>
      `| \`${kind}\` | ${COUNTED[kind]} | ${windowsText(config[kind].caller)} | ${windowsText(config[kind].target)} | ${vars(kind, ['caller', 'target'])} |`,
  );
  rows.push(
    `| anonymous caller | caps each kind's per-caller count for a chat nobody vouches for (counted by its chat) | ${windowsText(config.anonymous)} | — | ${vars('anonymous', [undefined])} |`,
  );
  return [
    '| kind | what is counted | per caller | per target | variables |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
