import { ENGINE_PROMPTS, type PaymentSettledEvent } from '../conversation/index.js';
import type { Job as PaymentJob } from '../jobs/index.js';
import type { PaymentContext } from './payment-context.js';
import { PaymentError, PaymentNotifyError } from './payment-errors.js';
import { DeliverJob, parseJob } from './payment-jobs.js';
import { outcomePrompt } from './payment-prompts.js';

/**
 * Runs one delivery job: the outcome into the flow (once, even across retries), then out through
 * the route's channel notifier. Throws to be retried while the flow or the notifier cannot take it.
 */
export async function deliverOutcome(ctx: PaymentContext, job: PaymentJob): Promise<void> {
  const { engine, turnDeadlineMs, log, notifiers } = ctx;
  const data = parseJob(DeliverJob, job);
  const { reference, outcome, route } = data;
  const address = { channel: route.channel, address: route.address, locale: route.locale };
  let prompt = data.prompt;
  if (!prompt) {
    const event: PaymentSettledEvent = {
      type: 'payment.settled',
      reference,
      outcome,
      ...(data.policyNumber === undefined ? {} : { policyNumber: data.policyNumber }),
      ...(data.policyId === undefined ? {} : { policyId: data.policyId }),
      ...(data.reason === undefined ? {} : { reason: data.reason }),
    };
    prompt = await engine.turn(route.sessionKey, event, {
      address,
      deadlineMs: turnDeadlineMs,
    });
    const lastTry = job.attemptsMade + 1 >= job.attempts;
    if (prompt.key === ENGINE_PROMPTS.busy || prompt.key === ENGINE_PROMPTS.error) {
      // The flow did not take the event (locked past the deadline, or a failed turn): try
      // again later; on the last try the user still hears the outcome, without the flow.
      if (!lastTry) {
        throw new PaymentError(
          'PAYMENT_FLOW_UNAVAILABLE',
          reference,
          `The engine answered ${prompt.key}`,
        );
      }
      log.error({ reference, outcome }, 'the flow never took the payment outcome');
      prompt = outcomePrompt(outcome, reference, data.policyNumber);
    } else if (prompt.key === ENGINE_PROMPTS.sessionEnded) {
      // The conversation expired while the payer approved: there is no flow to show it.
      prompt = outcomePrompt(outcome, reference, data.policyNumber);
    }
    await job.updateData({ ...data, prompt } satisfies DeliverJob);
  }
  const notifier = notifiers.get(route.channel);
  if (!notifier) {
    log.warn(
      { reference, channel: route.channel },
      'no notifier for the channel; only the flow was told',
    );
    return;
  }
  try {
    await notifier.notify(address, prompt);
  } catch (cause) {
    throw new PaymentNotifyError(reference, route.channel, { cause });
  }
  log.info({ reference, outcome, channel: route.channel }, 'payment outcome told to the user');
}
