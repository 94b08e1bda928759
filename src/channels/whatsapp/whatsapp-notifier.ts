import type { ChannelAddress, Prompt } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { Notifier } from '../index.js';
import type { RenderPrompt } from '../shared/index.js';
import {
  type GraphClient,
  loggable,
  type MessageStatus,
  type TemplateMessage,
  type TemplateStatusUpdate,
  WhatsAppGraphError,
} from './cloud-api/index.js';
import { toWhatsAppMessages } from './render-whatsapp-message.js';
import type { WhatsAppStore } from './whatsapp-store.js';
import {
  TEMPLATE_LANGUAGE,
  type TemplateDefinition,
  templateFor,
  templateParameters,
} from './whatsapp-templates.js';

/** Options of {@link createWhatsAppNotifier}. */
export interface WhatsAppNotifierOptions {
  readonly graph: GraphClient;
  readonly store: WhatsAppStore;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /**
   * The SMS notifier, looked up when needed (it may be added after WhatsApp's): a push whose
   * template Meta paused or rejected goes to the customer's number by SMS instead.
   */
  readonly sms?: () => Notifier | undefined;
}

/**
 * Template statuses Meta reports under which a send would fail: the event then goes by SMS.
 * Others (APPROVED, FLAGGED, which is still sent, IN_APPEAL…) keep the template in use.
 */
const UNUSABLE: ReadonlySet<string> = new Set([
  'PAUSED',
  'REJECTED',
  'DISABLED',
  'PENDING_DELETION',
  'DELETED',
  // Not Meta's word: a send failed with "template does not exist" (132001).
  'MISSING',
]);

/**
 * Meta's error codes on a failed template send that say the template itself cannot be used, and
 * the status that stands for each until Meta reports the template approved again.
 */
const TEMPLATE_ERRORS: ReadonlyMap<number, string> = new Map([
  [132001, 'MISSING'],
  [132015, 'PAUSED'],
  [132016, 'DISABLED'],
]);
/** Other template errors (parameters, format): this send failed, the template may still work. */
const isTemplateError = (code: number) => code >= 132_000 && code < 133_000;

/** The WhatsApp notifier, and what it does when Meta reports one of its templates failed. */
export interface WhatsAppNotifier extends Notifier {
  /**
   * A `failed` status for a message we sent: when it was a template and Meta's error is the
   * template's (paused, disabled, missing, its parameters), the message goes by SMS instead,
   * once; a paused or disabled template is recorded so later events go by SMS at once.
   */
  failed(status: MessageStatus): Promise<void>;
}

/** The template message carrying `prompt`: its named body parameters, in English (see below). */
function templateMessage(
  template: TemplateDefinition,
  prompt: Prompt,
  locale: string,
  render: RenderPrompt,
): TemplateMessage {
  const parameters = templateParameters(template, prompt, locale, render);
  return {
    type: 'template',
    template: {
      name: template.name,
      // Meta offers no Bemba or Nyanja templates: English, and the customer's language after.
      language: { code: TEMPLATE_LANGUAGE },
      components:
        parameters.length === 0
          ? []
          : [
              {
                type: 'body',
                parameters: parameters.map(({ name, text }) => ({
                  type: 'text' as const,
                  parameter_name: name,
                  text,
                })),
              },
            ],
    },
  };
}

/**
 * Reaches a customer outside a turn (payment outcomes, renewal reminders, claim notices, a
 * person's replies): inside their 24-hour window as ordinary messages; outside it as the one
 * approved template of the event (`whatsapp-templates.ts`), the whole message kept and sent when
 * the customer writes back where the template promises it. A push with no template of its own
 * (the step shown after a handoff) is only kept: a second template would say nothing new. When
 * Meta paused or rejected the template, the message goes by SMS to the same number.
 */
export function createWhatsAppNotifier(options: WhatsAppNotifierOptions): WhatsAppNotifier {
  const { graph, store, render } = options;
  const log = options.logger.child({ channel: 'whatsapp' });

  /** Sends `prompt` by SMS to the WhatsApp number; false when there is no SMS to send it by. */
  async function bySms(waId: string, prompt: Prompt, locale: string): Promise<boolean> {
    const sms = options.sms?.();
    if (!sms) return false;
    // The wa_id is the customer's number in international form, which the SMS gateway takes.
    await sms.notify({ channel: 'ussd', address: waId, locale }, prompt);
    return true;
  }

  return {
    async failed(status) {
      const codes = (status.errors ?? []).flatMap((error) => error.code ?? []);
      if (!codes.some(isTemplateError)) return;
      const sent = await store.takeTemplateSend(status.id);
      if (!sent) return;
      for (const code of codes) {
        const stands = TEMPLATE_ERRORS.get(code);
        if (stands) await store.recordTemplateStatus(sent.template, stands);
      }
      const told = await bySms(sent.waId, sent.prompt, sent.locale);
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
      if (status !== undefined && UNUSABLE.has(status)) {
        if (await bySms(waId, prompt, address.locale)) {
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
        const stands = TEMPLATE_ERRORS.get(code);
        if (stands) await store.recordTemplateStatus(template.name, stands);
        const told = await bySms(waId, prompt, address.locale);
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

/**
 * Records a template's status as Meta reports it (`message_template_status_update`): while it is
 * paused or rejected the notifier sends its events by SMS; APPROVED puts it back in use.
 */
export async function recordTemplateStatus(
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
  if (UNUSABLE.has(status)) logger.warn(fields, 'whatsapp template not usable: SMS instead');
  else logger.info(fields, 'whatsapp template status recorded');
}
