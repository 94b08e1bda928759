import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../log/index.js';

/** Reads a string field of an untyped payload object. */
export function field(value: unknown, ...path: string[]): string | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' ? current : undefined;
}

/** Who sent a command, an action or an event, from the shapes Slack uses for each. */
export function identity(body: unknown): { teamId?: string; userId?: string } {
  const teamId =
    field(body, 'team_id') ?? field(body, 'team', 'id') ?? field(body, 'user', 'team_id');
  const userId =
    field(body, 'user_id') ?? field(body, 'user', 'id') ?? field(body, 'event', 'user');
  return {
    ...(teamId === undefined ? {} : { teamId }),
    ...(userId === undefined ? {} : { userId }),
  };
}

/** Direct-message conversation ids start with D; anything else may be read by others. */
export function isShared(channelId: string): boolean {
  return !channelId.startsWith('D');
}

/** The error fields that are safe to log: its name and code, never its message. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const code = (error as Error & { code?: unknown }).code;
  return { errorName: error.name, ...(typeof code === 'string' ? { errorCode: code } : {}) };
}

/** Bolt's logger interface over pino; only strings pass through, never payload objects. */
export function boltLogger(log: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const line = (parts: unknown[]) =>
    parts
      .map((part) =>
        typeof part === 'string' ? part : part instanceof Error ? part.name : '[data]',
      )
      .join(' ')
      .slice(0, 300);
  return {
    debug: (...parts: unknown[]) => log.debug(line(parts)),
    info: (...parts: unknown[]) => log.info(line(parts)),
    warn: (...parts: unknown[]) => log.warn(line(parts)),
    error: (...parts: unknown[]) => log.error(line(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
