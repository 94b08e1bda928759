import type { Notifier } from '../channels/index.js';
import type { RenderPrompt } from '../channels/shared/index.js';
import {
  type GraphClient,
  isTemplateError,
  isUnusable,
  loggable,
  type MessageStatus,
  statusOfTemplateError,
  type TemplateDefinition,
  type TemplateStatusUpdate,
  templateMessage,
  templateOf,
  WhatsAppGraphError,
} from '../channels/whatsapp/cloud-api/index.js';
import { toWhatsAppMessages } from '../channels/whatsapp/index.js';
import type { ChannelAddress, Prompt } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import { isDeliveryStatus, type WhatsAppStore } from './whatsapp-store.js';

/** A push to one WhatsApp number, in the language it is shown in. */
interface Sent {
  readonly waId: string;
  readonly prompt: Prompt;
  readonly locale: string;
}

/** Options of {@link createWhatsAppNotifier}. */
interface WhatsAppNotifierOptions {
  readonly graph: GraphClient;
  readonly store: WhatsAppStore;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /**
   * Sends `prompt` by SMS to `phone` (the wa_id, the number in international form) instead;
   * false when there is no SMS to send it by. A push whose template Meta paused or rejected goes
   * this way (src/server composes it over the server's notifiers).
   */
  readonly bySms?: (phone: string, locale: string, prompt: Prompt) => Promise<boolean>;
}

/** The WhatsApp notifier, and what Meta reports of the messages and templates it sent. */
interface WhatsAppNotifier extends Notifier {
  /** Records a delivery status; it never reaches the conversation. */
  recordStatus(status: MessageStatus): Promise<void>;
  /**
   * Records a template's status as Meta reports it (`message_template_status_update`): while it
   * is paused or rejected its events go by SMS; APPROVED puts it back in use.
   */
  recordTemplateStatus(update: TemplateStatusUpdate): Promise<void>;
  /**
   * A `failed` status for a message we sent: when it was a template and Meta's error is the
   * template's (paused, disabled, missing, its parameters), the message goes by SMS instead,
   * once; a paused or disabled template is recorded so later events go by SMS at once.
   */
  failed(status: MessageStatus): Promise<void>;
}

/**
 * The template for a pushed prompt as it is: a reply that brings files goes as the document's
 * template, whose follow-up delivers them (and the words with them) once the customer writes; a
 * template that promises nothing more would leave the files behind.
 */
function templateFor(prompt: Pick<Prompt, 'key' | 'attachments'>): TemplateDefinition | undefined {
  const template = templateOf(prompt.key);
  if (template && !template.followUp && (prompt.attachments?.length ?? 0) > 0) {
    return templateOf('handoff.staffFile');
  }
  return template;
}

/**
 * Reaches a customer outside a turn (payment outcomes, renewal reminders, claim notices, a
 * person's replies): inside their 24-hour window as ordinary messages; outside it as the one
 * approved template of the event (`src/channels/whatsapp/cloud-api`), the whole message kept and
 * sent when the customer writes back where the template promises it. A push with no template of
 * its own (the step shown after a handoff) is only kept: a second template would say nothing new.
 * When Meta paused or rejected the template, the message goes by SMS to the same number.
 */
export function createWhatsAppNotifier(options: WhatsAppNotifierOptions): WhatsAppNotifier {
  const { graph, store, render } = options;
  const log = options.logger.child({ channel: 'whatsapp' });

  /** Sends `prompt` by SMS to the WhatsApp number; false when there is no SMS to send it by. */
  const bySms = async ({ waId, prompt, locale }: Sent): Promise<boolean> =>
    (await options.bySms?.(waId, locale, prompt)) ?? false;

  /**
   * Meta refused `template` with `codes` (paused, disabled, missing, its parameters): the status
   * each code stands for is recorded for the next event, and this one goes by SMS; true if it went.
   */
  async function refused(template: string, codes: readonly number[], sent: Sent): Promise<boolean> {
    for (const code of codes) {
      const stands = statusOfTemplateError(code);
      if (stands) await store.recordTemplateStatus(template, stands);
    }
    return bySms(sent);
  }

  return {
    recordStatus: (status) => recordStatus(store, log, status),
    recordTemplateStatus: (update) => recordTemplateStatus(store, options.logger, update),
    async failed(status) {
      const codes = (status.errors ?? []).flatMap((error) => error.code ?? []);
      if (!codes.some(isTemplateError)) return;
      const sent = await store.takeTemplateSend(status.id);
      if (!sent) return;
      const told = await refused(sent.template, codes, sent);
      log.warn(
        { event: 'whatsapp.template.failed', template: sent.template, codes, sms: told },
        told ? 'template failed: sent by SMS' : 'template failed and no SMS to send it by',
      );
    },
    channel: 'whatsapp',
    async notify(address: ChannelAddress, prompt: Prompt) {
      const waId = address.address;
      if (await store.isOpen(waId)) {
        for (const message of toWhatsAppMessages(prompt, render, address.locale)) {
          await graph.send(waId, message);
        }
        return;
      }
      const template = templateFor(prompt);
      if (!template) {
        await store.hold(waId, { prompt, locale: address.locale });
        log.info({ event: 'whatsapp.held', key: prompt.key }, 'kept until the customer writes');
        return;
      }
      const status = await store.templateStatus(template.name);
      if (status !== undefined && isUnusable(status)) {
        if (await bySms({ waId, prompt, locale: address.locale })) {
          log.warn(
            { event: 'whatsapp.template.sms', template: template.name, status: loggable(status) },
            'template not usable: sent by SMS',
          );
          return;
        }
      }
      let id: string;
      try {
        id = await graph.send(waId, templateMessage(template, prompt, address.locale, render));
      } catch (error) {
        // Meta refused the template itself as it was sent (paused, disabled, missing, its
        // parameters): this event goes by SMS, and a paused one is recorded for the next.
        const code = error instanceof WhatsAppGraphError ? error.graphCode : undefined;
        if (code === undefined || !isTemplateError(code)) throw error;
        const told = await refused(template.name, [code], { waId, prompt, locale: address.locale });
        log.warn(
          { event: 'whatsapp.template.refused', template: template.name, code, sms: told },
          told ? 'template refused: sent by SMS' : 'template refused and no SMS to send it by',
        );
        if (!told) throw error;
        return;
      }
      const sent = { prompt, locale: address.locale };
      await store.rememberTemplateSend(id, { ...sent, waId, template: template.name });
      if (template.followUp) await store.hold(waId, sent);
    },
  };
}

/** {@link WhatsAppNotifier.recordTemplateStatus}, logged without the channel's child logger. */
async function recordTemplateStatus(
  store: WhatsAppStore,
  logger: Logger,
  update: TemplateStatusUpdate,
): Promise<void> {
  const status = update.event.trim().toUpperCase();
  await store.recordTemplateStatus(update.message_template_name, status);
  const fields = {
    channel: 'whatsapp',
    event: 'whatsapp.template.status',
    template: loggable(update.message_template_name),
    status: loggable(status.toLowerCase()),
  };
  if (isUnusable(status)) logger.warn(fields, 'whatsapp template not usable: SMS instead');
  else logger.info(fields, 'whatsapp template status recorded');
}

/**
 * Records a delivery status; a failed one is logged with WhatsApp's error codes. Statuses beyond
 * sent, delivered, read and failed (played, deleted, warning, any Meta adds) are only logged.
 */
async function recordStatus(store: WhatsAppStore, log: Logger, status: MessageStatus) {
  if (!isDeliveryStatus(status.status)) {
    log.debug(
      { event: 'whatsapp.status.ignored', status: loggable(status.status) },
      'status ignored',
    );
    return;
  }
  await store.recordStatus(status.id, status.status);
  if (status.status === 'failed') {
    const codes = (status.errors ?? []).map((error) => error.code);
    log.warn({ event: 'whatsapp.status.failed', codes }, 'whatsapp message not delivered');
  }
}
