import { type Logger, type LoggerOptions, pino } from 'pino';

/**
 * Field paths that may hold personal data or secrets. pino replaces them before a line is
 * written, so a careless `log.info({ body })` cannot leak an NRC, an MSISDN or a name.
 */
export const REDACTED_PATHS: readonly string[] = [
  'nrc',
  'nrcNumber',
  'idNumber',
  'phone',
  'phoneNumber',
  'msisdn',
  'mobileMoneyAccountNumber',
  'name',
  'fullName',
  'firstName',
  'lastName',
  'clientName',
  'email',
  'address',
  'text',
  'authorization',
  'apiKey',
  'token',
  'secret',
  'password',
].flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]);

/** Options for {@link createLogger}. */
export interface CreateLoggerOptions {
  readonly level?: string;
  /** Where lines go; tests pass a stream to read what was logged. */
  readonly destination?: NodeJS.WritableStream;
}

/** The process logger: JSON lines with personal data and secrets redacted at the source. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: [...REDACTED_PATHS], censor: '[REDACTED]' },
    base: { service: 'insurechat' },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

export type { Logger };
