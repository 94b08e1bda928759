// What every channel shares with the services that reach users out of a turn (payments,
// reminders, handoff). Only types and small helpers: each channel's own surface stays behind its
// folder's index, so importing this never loads a platform SDK.

export type { Notifier } from './notifier.js';
