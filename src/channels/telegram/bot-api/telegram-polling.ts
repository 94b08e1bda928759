import type { Bot } from 'grammy';
import type { Logger } from '../../../log/index.js';
import { describeTelegramError } from './telegram-errors.js';

/**
 * Starts long polling (getUpdates), for local use when no public webhook URL exists: resolves
 * once polling began, with `ended`, which settles when it stops (a failure is logged here).
 */
export function startPolling(bot: Bot, log: Logger): Promise<{ readonly ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const ended: Promise<void> = bot.start({ onStart: () => resolve({ ended }) }).catch((error) => {
      log.error(describeTelegramError(error), 'telegram polling stopped');
      reject(error);
    });
  });
}
