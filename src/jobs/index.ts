// Jobs run later, again, or now on whichever instance is free: one port (delays, retries,
// repeating schedules, a job waited for) with a BullMQ adapter over Redis and a timer adapter in
// this process. Payments, renewal reminders and the holdings sync each run on it.

export { type BullJobSchedulerOptions, createBullJobScheduler } from './bullmq-job-scheduler.js';
export {
  type Job,
  type JobFailure,
  type JobHooks,
  type JobOptions,
  type JobOutcome,
  type JobScheduler,
  type Repeat,
  retryDelay,
  until,
} from './job-scheduler.js';
export { createMemoryJobScheduler } from './memory-job-scheduler.js';
