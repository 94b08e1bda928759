/** Median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A figure summarised over repeated runs: median, smallest and largest. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

/** Summarises repeated measurements of one figure. */
export function spread(values: readonly number[]): Spread {
  return {
    median: median(values),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
    n: values.length,
  };
}

/** Formats a number with a fixed count of decimals, or `n/a` when it is not finite. */
export function fmt(value: number, decimals = 0): string {
  return Number.isFinite(value) ? value.toFixed(decimals) : 'n/a';
}

/** `median (min–max)` with the given decimals. */
export function fmtSpread(s: Spread, decimals = 0, unit = ''): string {
  return `${fmt(s.median, decimals)}${unit} (${fmt(s.min, decimals)}–${fmt(s.max, decimals)})`;
}

/** A ratio formatted as `0.83×`. */
export function fmtRatio(s: Spread): string {
  return `${fmt(s.median, 2)}× (${fmt(s.min, 2)}–${fmt(s.max, 2)})`;
}

/** Whether a target is met, as a word for the results table. */
export function verdict(met: boolean | undefined): string {
  if (met === undefined) return 'not measured';
  return met ? 'met' : 'NOT met';
}

/** Rotates a list so run order changes between pairs and no contender always goes first. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** Reads a positive number from the environment, or the default. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** CPU time (user + system) in microseconds since `since`, from `process.cpuUsage`. */
export function cpuMicros(since?: NodeJS.CpuUsage): number {
  const usage = process.cpuUsage(since);
  return usage.user + usage.system;
}
