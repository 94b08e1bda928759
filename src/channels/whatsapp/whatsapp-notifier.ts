import type { ChannelAddress, Prompt } from '../../conversation/index.js';
import type { Notifier } from '../index.js';
import type { RenderPrompt } from '../shared/index.js';
import type { GraphClient, TemplateMessage } from './cloud-api/index.js';
import { templateText, toWhatsAppMessages } from './render-whatsapp-message.js';
import type { WhatsAppTemplates } from './whatsapp-config.js';
import type { WhatsAppStore } from './whatsapp-store.js';

/** Options of {@link createWhatsAppNotifier}. */
export interface WhatsAppNotifierOptions {
  readonly graph: GraphClient;
  readonly store: WhatsAppStore;
  readonly render: RenderPrompt;
  readonly templates: WhatsAppTemplates;
  /**
   * The language the templates were approved in; default `en`. WhatsApp has no Bemba or Nyanja
   * templates: the parameter carries the customer's own language inside the approved frame.
   */
  readonly templateLanguage?: string;
}

/** Which approved template carries a prompt sent outside the window. */
function templateFor(prompt: Prompt, templates: WhatsAppTemplates): string {
  if (prompt.key.startsWith('reminder.')) return templates.reminder;
  // A person's reply, a claim's confirmation: notices. Everything else pushed is a payment's.
  if (/^(handoff|claim|documents)\./.test(prompt.key)) return templates.notice;
  return templates.payment;
}

/**
 * Reaches a customer outside a turn (payment outcomes, renewal reminders, a person's replies):
 * inside their 24-hour window as ordinary messages, outside it as an approved template whose one
 * body parameter is the message's text (buttons and files cannot go in it; their next message
 * reopens the window and brings the menu).
 */
export function createWhatsAppNotifier(options: WhatsAppNotifierOptions): Notifier {
  const { graph, store, render, templates } = options;
  return {
    channel: 'whatsapp',
    async notify(address: ChannelAddress, prompt: Prompt) {
      if (await store.isOpen(address.address)) {
        for (const message of toWhatsAppMessages(prompt, render, address.locale)) {
          await graph.send(address.address, message);
        }
        return;
      }
      const template: TemplateMessage = {
        type: 'template',
        template: {
          name: templateFor(prompt, templates),
          language: { code: options.templateLanguage ?? 'en' },
          components: [
            {
              type: 'body',
              parameters: [{ type: 'text', text: templateText(prompt, render, address.locale) }],
            },
          ],
        },
      };
      await graph.send(address.address, template);
    },
  };
}
