import { GrammyError } from 'grammy';

/** Raised when a claim file cannot be fetched from Telegram. */
export class TelegramFileError extends Error {
  override readonly name = 'TelegramFileError';
  readonly code = 'TELEGRAM_FILE_UNAVAILABLE';
}

/** Raised when a webhook body carrying the right secret is not a Telegram update. */
export class TelegramUpdateError extends Error {
  override readonly name = 'TelegramUpdateError';
  readonly code = 'TELEGRAM_UPDATE_INVALID';
}

/**
 * The error fields that are safe to log, flat (pino redacts any `name` field): never a message or
 * payload of ours, which could echo what the user typed; Telegram's own description is safe.
 */
export function describeTelegramError(error: unknown): Record<string, unknown> {
  if (error instanceof GrammyError) {
    return {
      errorName: error.name,
      apiMethod: error.method,
      errorCode: error.error_code,
      description: error.description,
    };
  }
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return { errorName: error.name, ...(typeof code === 'string' ? { errorCode: code } : {}) };
  }
  return { errorName: typeof error };
}
