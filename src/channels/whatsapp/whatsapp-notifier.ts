import type { ChannelAddress, Prompt } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { Notifier } from '../index.js';
import type { RenderPrompt } from '../shared/index.js';
import {
  type GraphClient,
  loggable,
  type TemplateMessage,
  type TemplateStatusUpdate,
} from './cloud-api/index.js';
import { toWhatsAppMessages } from './render-whatsapp-message.js';
import type { WhatsAppStore } from './whatsapp-store.js';
import {
  TEMPLATE_LANGUAGE,
  type TemplateDefinition,
  templateOf,
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
]);

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
export function createWhatsAppNotifier(options: WhatsAppNotifierOptions): Notifier {
  const { graph, store, render } = options;
  const log = options.logger.child({ channel: 'whatsapp' });
  return {
    channel: 'whatsapp',
    async notify(address: ChannelAddress, prompt: Prompt) {
      const waId = address.address;
      if (await store.isOpen(waId)) {
        for (const message of toWhatsAppMessages(prompt, render, address.locale)) {
          await graph.send(waId, message);
        }
        return;
      }
      const template = templateOf(prompt.key);
      if (!template) {
        await store.hold(waId, { prompt, locale: address.locale });
        log.info({ event: 'whatsapp.held', key: prompt.key }, 'kept until the customer writes');
        return;
      }
      const status = await store.templateStatus(template.name);
      const sms = status !== undefined && UNUSABLE.has(status) ? options.sms?.() : undefined;
      if (sms) {
        // The wa_id is the customer's number in international form, which the SMS gateway takes.
        await sms.notify({ channel: 'ussd', address: waId, locale: address.locale }, prompt);
        log.warn(
          { event: 'whatsapp.template.sms', template: template.name, status },
          'template not usable: sent by SMS',
        );
        return;
      }
      await graph.send(waId, templateMessage(template, prompt, address.locale, render));
      if (template.followUp) await store.hold(waId, { prompt, locale: address.locale });
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
