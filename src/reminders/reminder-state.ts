import type { Logger } from '../log/index.js';
import type { ContactBook } from './contact-book.js';
import type { ReminderServiceOptions } from './reminder-service.js';

/** What the reminder service's parts share: its options, book, log and clock. */
export interface ReminderState {
  readonly options: ReminderServiceOptions;
  readonly book: ContactBook;
  readonly log: Logger;
  /** Epoch ms. */
  readonly now: () => number;
  /** Runs a metrics hook; one that throws is logged, never passed on. */
  safely(hook: (() => void) | undefined): void;
}

/** The shared state of one reminder service over `options`. */
export function createReminderState(options: ReminderServiceOptions): ReminderState {
  const { book } = options;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ module: 'reminders' });

  function safely(hook: (() => void) | undefined): void {
    try {
      hook?.();
    } catch (err) {
      log.warn({ err }, 'reminder metrics hook threw');
    }
  }

  return { options, book, log, now, safely };
}
