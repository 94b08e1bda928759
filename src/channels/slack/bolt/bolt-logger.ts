import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../../log/index.js';

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
