import { z } from 'zod';
import { Prompt } from '../conversation/index.js';
import type { Job as PaymentJob } from '../jobs/index.js';
import { PaymentError } from './payment-errors.js';
import { PaymentRoute } from './payment-routes.js';

/** A status poll of one tracked reference: the `attempt`-th delay of its schedule. */
export const PollJob = z.object({
  reference: z.string(),
  generation: z.number().int(),
  attempt: z.number().int().nonnegative(),
  /** The pay request's answer was lost: polled on the lookup schedule until the insurer has it. */
  unconfirmed: z.boolean().optional(),
});
/** A status check at once of one tracked reference (a callback came before its route). */
export const CheckJob = z.object({ reference: z.string(), generation: z.number().int() });
/** An outcome claimed for delivery: into the flow, then out through the channel's notifier. */
export const DeliverJob = z.object({
  reference: z.string(),
  outcome: z.enum(['paid', 'failed', 'pending']),
  route: PaymentRoute,
  policyNumber: z.string().optional(),
  policyId: z.string().optional(),
  /** Why the insurer says it failed, when it says. */
  reason: z.string().optional(),
  /** Set once the engine has taken the event, so a notifier retry does not move the flow twice. */
  prompt: Prompt.optional(),
});
/** An outcome claimed for delivery. */
export type DeliverJob = z.infer<typeof DeliverJob>;

/**
 * A payment chosen on a handset call, to start once the call has ended: `payment.proceed` into
 * the conversation, then what it shows told through the route's notifier.
 */
export const ProceedJob = z.object({
  id: z.string(),
  route: PaymentRoute,
  /** Set once the engine has taken the event, so a notifier retry does not send it twice. */
  prompt: Prompt.optional(),
});
/** A payment to start once the call has ended. */
export type ProceedJob = z.infer<typeof ProceedJob>;

/** What a callback told of a payment besides its status, kept for its delivery. */
export const PaymentHint = z.object({
  policyNumber: z.string().optional(),
  policyId: z.string().optional(),
});
/** What a callback told of a payment. */
export type PaymentHint = z.infer<typeof PaymentHint>;

// A poll that failed on its store (not on the insurer: that counts as "still pending") is
// retried, so one blip does not end the schedule without anyone being told.
export const pollJobOptions = { attempts: 3, backoff: { type: 'fixed', delay: 1_000 } } as const;

/** The reference a job's data names, when it names one (for logs and errors). */
export function referenceOf(data: unknown): string | undefined {
  const reference = (data as { reference?: unknown } | null | undefined)?.reference;
  return typeof reference === 'string' ? reference : undefined;
}

/** The job's data read with `schema`; throws PaymentError (`PAYMENT_JOB_INVALID`) when unreadable. */
export function parseJob<T>(schema: z.ZodType<T>, job: PaymentJob): T {
  const parsed = schema.safeParse(job.data);
  if (!parsed.success) {
    const reference = referenceOf(job.data) ?? 'unknown';
    throw new PaymentError(
      'PAYMENT_JOB_INVALID',
      reference,
      `Job ${job.name} has unreadable data`,
      {
        cause: parsed.error,
      },
    );
  }
  return parsed.data;
}
