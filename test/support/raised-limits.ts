import { DEFAULT_LIMITS, LIMIT_KINDS, LimitsEnv, limitVariable } from '../../src/limits/index.js';

/** Every window the defaults limit, as its variable; the ones they leave unlimited stay so. */
const LIMITED = [
  ...LIMIT_KINDS.flatMap((kind) =>
    (['caller', 'target'] as const).flatMap((scope) =>
      (['hour', 'day'] as const)
        .filter((window) => DEFAULT_LIMITS[kind][scope][window] > 0)
        .map((window) => limitVariable(kind, scope, window)),
    ),
  ),
  ...(['hour', 'day'] as const)
    .filter((window) => DEFAULT_LIMITS.anonymous[window] > 0)
    .map((window) => limitVariable('anonymous', undefined, window)),
];

/**
 * Every limit (src/limits) raised so far that no journey meets "asked too often": walks of many
 * flows from one phone, benches and fault runs test other things. The limiter stays on the path
 * with the defaults' windows (each request is still counted, at the same Redis cost); tests of
 * the limits set their own LIMIT_ variables.
 */
export const RAISED_LIMITS: Readonly<Record<string, string>> = Object.fromEntries(
  LIMITED.map((variable) => [variable, '1000000']),
);

/** The limits as deployed: every LIMIT_ variable blank, so each takes its default. */
export const DEFAULT_LIMITS_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(LimitsEnv).map((variable) => [variable, '']),
);
