import { GrammyError } from 'grammy';
import { CodedError } from '../../../errors/index.js';

/** Raised when a claim file cannot be fetched from Telegram. */
export class TelegramFileError extends CodedError<'TELEGRAM_FILE_UNAVAILABLE'> {
  override readonly name = 'TelegramFileError';
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super('TELEGRAM_FILE_UNAVAILABLE', message, options);
  }
}

/** Raised when a webhook body carrying the right secret is not a Telegram update. */
export class TelegramUpdateError extends CodedError<'TELEGRAM_UPDATE_INVALID'> {
  override readonly name = 'TelegramUpdateError';
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super('TELEGRAM_UPDATE_INVALID', message, options);
  }
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
