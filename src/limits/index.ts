/*
 * Limits on everything that costs money or reaches a person: SMS, one-time codes, mobile-money
 * prompts to another person's number, and look-ups by a typed NRC, claim number or plate. Counted
 * per caller and per target, in hour and day windows, on Redis (every instance, Cluster too) or
 * in this process. The server builds one; flows reach it through their deps.
 */
export {
  DEFAULT_LIMITS,
  KindLimits,
  LIMIT_KINDS,
  LimitKind,
  LimitsConfig,
  LimitsEnv,
  LimitWindows,
  limitsConfigOf,
  limitsMarkdown,
  limitVariable,
} from './limit-config.js';
export {
  createLimits,
  LimitReachedError,
  type LimitRequest,
  type LimitScope,
  type Limits,
  type LimitsOptions,
  type LimitTarget,
  type LimitVerdict,
  type LimitWindow,
} from './limits.js';
