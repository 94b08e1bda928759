import { ENGINE_PROMPTS, type PaymentProceedEvent } from '../conversation/index.js';
import type { Job as PaymentJob } from '../jobs/index.js';
import type { PaymentContext } from './payment-context.js';
import { PaymentError, PaymentNotifyError } from './payment-errors.js';
import { ProceedJob, parseJob } from './payment-jobs.js';
import { paymentKey } from './payment-keys.js';

/**
 * Screens that say only what the caller was told as the call ended (the payment waits on their
 * phone, or is being confirmed): not sent again by SMS. The outcome follows when it comes.
 */
const ALREADY_TOLD: ReadonlySet<string> = new Set([
  'pay.released',
  'pay.waitHandset',
  'pay.waitConfirming',
]);

/**
 * Runs one proceed job: `payment.proceed` into the conversation (the flow makes its writes and
 * starts the payment; a second delivery of the same id is ignored by the flow), then what the
 * conversation shows told through the route's notifier once, unless it only says the payment
 * waits on the phone. Throws to be retried while the flow or the notifier cannot take it.
 */
export async function proceedWithPayment(ctx: PaymentContext, job: PaymentJob): Promise<void> {
  const { engine, turnDeadlineMs, log, notifiers, keys, prefix, ttlSeconds } = ctx;
  const data = parseJob(ProceedJob, job);
  const { id, route } = data;
  const address = { channel: route.channel, address: route.address, locale: route.locale };
  let prompt = data.prompt;
  if (!prompt) {
    // The caller dialled again and started something else before the pay request went out: the
    // conversation no longer waits on the call it let go, so there is nothing to start, and its
    // screen (another flow's question) is not the caller's to get by SMS.
    const waiting = await engine.peek(route.sessionKey, { address, deadlineMs: turnDeadlineMs });
    if (waiting.endsCall !== true) {
      log.info({ channel: route.channel }, 'payment left before it started');
      return;
    }
    const event: PaymentProceedEvent = { type: 'payment.proceed', id };
    prompt = await engine.turn(route.sessionKey, event, { address, deadlineMs: turnDeadlineMs });
    if (prompt.key === ENGINE_PROMPTS.busy || prompt.key === ENGINE_PROMPTS.error) {
      // The flow did not take the event (a turn of the caller's held it, or it failed): again
      // later. Nothing was started, so the last try gives up with nothing to tell.
      throw new PaymentError('PAYMENT_FLOW_UNAVAILABLE', id, `The engine answered ${prompt.key}`);
    }
    // The conversation expired or was erased meanwhile: nothing to start, no one to tell.
    if (prompt.key === ENGINE_PROMPTS.sessionEnded) return;
    await job.updateData({ ...data, prompt } satisfies ProceedJob);
  }
  if (ALREADY_TOLD.has(prompt.key)) return;
  const notifier = notifiers.get(route.channel);
  if (!notifier) return;
  // Told once per hand-over, however often the job runs.
  const told = paymentKey(prefix, 'proceed', id);
  if (!(await keys.claim(told, 'told', ttlSeconds))) return;
  try {
    await notifier.notify(address, prompt);
  } catch (cause) {
    await keys.del(told).catch(() => undefined);
    throw new PaymentNotifyError(id, route.channel, { cause });
  }
  log.info({ channel: route.channel, key: prompt.key }, 'payment start told to the user');
}
