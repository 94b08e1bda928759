/** One SMS the sandbox accepted on its Africa's Talking-style messaging endpoint. */
export interface OutboxSms {
  readonly messageId: string;
  readonly to: string;
  readonly from: string | null;
  readonly message: string;
  readonly sentAt: string;
}

/** The messages sent through the sandbox, readable by the web simulator and tests. */
export interface SmsOutbox {
  add(sms: Omit<OutboxSms, 'messageId' | 'sentAt'>): OutboxSms;
  /** Messages to `to` (any form of the number's last nine digits), oldest first; all when omitted. */
  list(to?: string): OutboxSms[];
  clear(): void;
}

/** Compares numbers by their national part so `0971…`, `260971…` and `+260971…` match. */
function nationalPart(msisdn: string): string {
  return msisdn.replace(/\D/g, '').slice(-9);
}

/** Creates an empty outbox; `now` stamps each message. */
export function createSmsOutbox(now: () => Date): SmsOutbox {
  const messages: OutboxSms[] = [];
  let counter = 0;
  return {
    add(sms) {
      counter += 1;
      const stored: OutboxSms = {
        ...sms,
        messageId: `ATXid_sandbox_${counter}`,
        sentAt: now().toISOString(),
      };
      messages.push(stored);
      return stored;
    },
    list(to) {
      if (to === undefined) return [...messages];
      const wanted = nationalPart(to);
      return messages.filter((sms) => nationalPart(sms.to) === wanted);
    },
    clear() {
      messages.length = 0;
    },
  };
}
