import { z } from 'zod';
import { SERVICE_WINDOW_SECONDS } from '../channels/whatsapp/cloud-api/index.js';
import { Prompt } from '../conversation/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** How long a sent message's last status is kept: a day covers its delivery and reading. */
const STATUS_TTL_SECONDS = 24 * 3_600;

/**
 * How long messages held for a customer outside the window are kept: a week, as long as a
 * template's promise ("reply to receive your certificate") is worth keeping.
 */
const HELD_TTL_SECONDS = 7 * 24 * 3_600;
/** How long a template's last status from Meta is kept: until Meta reports it again. */
const TEMPLATE_STATUS_TTL_SECONDS = 30 * 24 * 3_600;

/** A message kept for a customer outside the window, with the language it is shown in. */
const HeldMessage = z.object({ prompt: Prompt, locale: z.string() });
/** A message kept for a customer outside the window. */
type HeldMessage = z.infer<typeof HeldMessage>;

/** What a template sent outside the window carried: its name and the whole message. */
const TemplateSend = HeldMessage.extend({ waId: z.string(), template: z.string() });
/** What a template sent outside the window carried. */
type TemplateSend = z.infer<typeof TemplateSend>;

/** The delivery states WhatsApp reports for a message we sent. */
type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/**
 * What reaching a WhatsApp customer outside a turn keeps: when each phone last wrote (its 24-hour
 * window, opened by the channel at each message), what is held for it until it writes, the
 * templates' statuses and sends, and the last status of each message sent. Each phone's window is a key whose lifetime
 * is the window itself, so present means open and the store needs no clock.
 */
export interface WhatsAppStore {
  /** The phone (wa_id) just wrote: its window opens for another 24 h. */
  touch(waId: string): Promise<void>;
  /** True while free-form messages may reach the phone. */
  isOpen(waId: string): Promise<boolean>;
  /** Records a status WhatsApp reported for one of our messages. */
  recordStatus(messageId: string, status: DeliveryStatus): Promise<void>;
  /** Keeps a message for the phone until it writes (what a template promised, a step). */
  hold(waId: string, message: HeldMessage): Promise<void>;
  /** The messages kept for the phone, oldest first, taken once: a second call finds none. */
  takeHeld(waId: string): Promise<HeldMessage[]>;
  /** Records a template's status as Meta reports it (APPROVED, PAUSED, REJECTED…). */
  recordTemplateStatus(name: string, status: string): Promise<void>;
  /** The last status Meta reported for a template; undefined when none (taken as approved). */
  templateStatus(name: string): Promise<string | undefined>;
  /** Remembers what a sent template carried, for a day: a `failed` status may still come. */
  rememberTemplateSend(messageId: string, sent: TemplateSend): Promise<void>;
  /** What a sent template carried, taken once; undefined when not one of ours or taken. */
  takeTemplateSend(messageId: string): Promise<TemplateSend | undefined>;
  /** "Delete my data": the phone's held messages (policy numbers, plates) and its window. */
  forget(waId: string): Promise<void>;
}

const STATUSES: ReadonlySet<string> = new Set(['sent', 'delivered', 'read', 'failed']);

/** True for the statuses the store keeps; Meta sends others (played, deleted, warning). */
export function isDeliveryStatus(status: string): status is DeliveryStatus {
  return STATUSES.has(status);
}

/**
 * WhatsApp's keys on the server's key-value store (Redis, or this process):
 * `whatsapp-window:{<wa_id>}` (24 h), `whatsapp-status:{<message id>}` (1 day),
 * `whatsapp-held:{<wa_id>}` (7 days), `whatsapp-template:{<name>}` (30 days) and
 * `whatsapp-template-send:{<message id>}` (1 day), all in the retention table.
 */
export function createWhatsAppStore(store: KeyValueStore, prefix: string): WhatsAppStore {
  const windowKey = (waId: string) => `${prefix}whatsapp-window:{${waId}}`;
  const statusKey = (id: string) => `${prefix}whatsapp-status:{${id}}`;
  const heldKey = (waId: string) => `${prefix}whatsapp-held:{${waId}}`;
  const templateKey = (name: string) => `${prefix}whatsapp-template:{${name}}`;
  const sendKey = (id: string) => `${prefix}whatsapp-template-send:{${id}}`;
  const heldOf = (raw: string | undefined): HeldMessage[] => {
    const parsed = z.array(HeldMessage).safeParse(raw === undefined ? [] : safeJson(raw));
    return parsed.success ? parsed.data : [];
  };
  return {
    async touch(waId) {
      await store.set(windowKey(waId), '1', SERVICE_WINDOW_SECONDS);
    },
    async isOpen(waId) {
      return (await store.get(windowKey(waId))) !== undefined;
    },
    async recordStatus(messageId, status) {
      await store.set(statusKey(messageId), status, STATUS_TTL_SECONDS);
    },
    async hold(waId, message) {
      // Read then written: two pushes to one phone in the same instant are rare (an outcome and
      // the step after a handoff come one after the other), and the later one would win.
      const held = heldOf(await store.get(heldKey(waId)));
      await store.set(heldKey(waId), JSON.stringify([...held, message]), HELD_TTL_SECONDS);
    },
    async takeHeld(waId) {
      return heldOf(await store.take(heldKey(waId)));
    },
    async recordTemplateStatus(name, status) {
      await store.set(templateKey(name), status, TEMPLATE_STATUS_TTL_SECONDS);
    },
    templateStatus: (name) => store.get(templateKey(name)),
    async rememberTemplateSend(messageId, sent) {
      await store.set(sendKey(messageId), JSON.stringify(sent), STATUS_TTL_SECONDS);
    },
    async forget(waId) {
      await Promise.all([store.delete(heldKey(waId)), store.delete(windowKey(waId))]);
    },
    async takeTemplateSend(messageId) {
      const raw = await store.take(sendKey(messageId));
      const parsed = TemplateSend.safeParse(raw === undefined ? undefined : safeJson(raw));
      return parsed.success ? parsed.data : undefined;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
