import type { KeyValueStore } from '../../storage/index.js';

/** WhatsApp's customer service window: free-form messages only within 24 h of their last one. */
export const SERVICE_WINDOW_SECONDS = 24 * 3_600;
/** How long a sent message's last status is kept: a day covers its delivery and reading. */
export const STATUS_TTL_SECONDS = 24 * 3_600;

/** The delivery states WhatsApp reports for a message we sent. */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/**
 * What the channel keeps beside the conversation: when each phone last wrote (its 24-hour
 * window) and the last status of each message sent. Each phone's window is a key whose lifetime
 * is the window itself, so present means open and the store needs no clock.
 */
export interface WhatsAppStore {
  /** The phone (wa_id) just wrote: its window opens for another 24 h. */
  touch(waId: string): Promise<void>;
  /** True while free-form messages may reach the phone. */
  isOpen(waId: string): Promise<boolean>;
  /** Records a status WhatsApp reported for one of our messages. */
  recordStatus(messageId: string, status: DeliveryStatus): Promise<void>;
  /** The last status recorded for a message; undefined when none. */
  statusOf(messageId: string): Promise<DeliveryStatus | undefined>;
}

const STATUSES: ReadonlySet<string> = new Set(['sent', 'delivered', 'read', 'failed']);

/** True for the statuses the store keeps; Meta sends others (played, deleted, warning). */
export function isDeliveryStatus(status: string): status is DeliveryStatus {
  return STATUSES.has(status);
}

/**
 * The channel's keys on the server's key-value store (Redis, or this process):
 * `whatsapp-window:{<wa_id>}` (24 h) and `whatsapp-status:{<message id>}` (1 day), both in the
 * retention table.
 */
export function createWhatsAppStore(store: KeyValueStore, prefix: string): WhatsAppStore {
  const windowKey = (waId: string) => `${prefix}whatsapp-window:{${waId}}`;
  const statusKey = (id: string) => `${prefix}whatsapp-status:{${id}}`;
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
    async statusOf(messageId) {
      const status = await store.get(statusKey(messageId));
      return status !== undefined && isDeliveryStatus(status) ? status : undefined;
    },
  };
}
