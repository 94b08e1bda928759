/*
 * Every key and file insurechat writes, and when it goes. The retention table of
 * docs/privacy-and-limits.md is this table rendered (a test keeps them equal), and the Redis walk
 * after the journeys fails on any key without a TTL that no row here marks as kept on purpose.
 */

/** One kind of record the bot keeps, and its expiry. */
export interface RetentionRule {
  /** What it is, in words. */
  readonly what: string;
  /** Where: the key after the deployment's prefix (`{…}` hash tags as written), or the place. */
  readonly where: string;
  /** When it goes. */
  readonly expiry: string;
  /**
   * Redis keys of this rule that carry no TTL on purpose (structures trimmed otherwise, queue
   * bookkeeping), as a pattern over the key with the deployment's prefix removed.
   */
  readonly keptWithoutTtl?: RegExp;
}

/** The retention table: one row per record kind, in the order docs/privacy-and-limits.md shows them. */
export const RETENTION: readonly RetentionRule[] = [
  {
    what: 'Conversation session (answers so far, the current screen)',
    where: '`session:{<channel>:<id>}`, `lock:{…}`',
    expiry: '15 minutes idle (a paused handoff: up to 7 days); deleted when the conversation ends',
  },
  {
    what: 'The pages of a long USSD screen on a call (its text as shown), for paging',
    where: '`ussd-pages:<gateway call id>`',
    expiry: '5 minutes',
  },
  {
    what: 'Consent to the privacy notice (version and time)',
    where: '`consent:{<channel>:<phone or chat>}`',
    expiry: '1 year after last use; deleted by "Delete my data" and "Stop using my data"',
  },
  {
    what: 'Erasure tombstone (a keyed hash of an erased phone or NRC, never the number)',
    where: '`erased:{<HMAC>}`',
    expiry:
      '2 years, renewed while the holdings sync still meets the phone or NRC; lifted by a new paid purchase',
  },
  {
    what: 'Limit counts (a keyed hash of a caller or target, never the number or NRC)',
    where: '`limits:<kind>:<scope>:<window>:{<HMAC>}`',
    expiry: '1 hour or 1 day from the first count (the window)',
  },
  {
    what: 'Renewal-reminder contact and card (address, policy numbers, end dates)',
    where: '`reminder-contact:{<policyId>}`, `reminder-card:{<channel>:<address>}`',
    expiry: '500 days after the last purchase or renewal; deleted by "My data"',
  },
  {
    what: 'Reminders due (policy ids only)',
    where: '`reminder-due`',
    expiry: 'kept on purpose: each entry leaves 30 days after its cover ended, or with "My data"',
    keptWithoutTtl: /^reminder-due$/,
  },
  {
    what: 'Reminder sent markers (policy id and milestone), reminder notices not yet sent (policy number)',
    where: '`reminder-claim:{…}`',
    expiry: '10 minutes while sending, 60 days once sent; a notice 1 minute',
  },
  {
    what: 'Payment route (where an outcome is told: channel and phone or chat)',
    where: '`payment-route:{<reference>}`, `payment-holder:{<channel>:<address>}`',
    expiry:
      '1 day; "My data" deletes those of settled payments and keeps those in flight until then',
  },
  {
    what: 'Payment exactly-once markers (no personal data)',
    where:
      '`payment-delivered:{<ref>}`, `payment-hint:{<ref>}`, `payment-generation:{<ref>}`, `pay:{<ref>}`',
    expiry: '1 day; an attempt `pay:` 7 days (kept through "My data": money is told once)',
  },
  {
    what: 'Payment, reminder and holdings-sync jobs (BullMQ)',
    where:
      '`{<prefix>bull}:payments:*`, `{<prefix>bull}:reminders:*`, `{<prefix>bull}:holdings-sync:*`',
    expiry:
      "a job is removed when done (`removeOnComplete`); failed payment jobs after 1 day (`removeOnFail` age), failed scans after 50; the queues' own bookkeeping (meta, id, events trimmed by BullMQ to ~10 000, schedules, waiting and delayed jobs) is kept on purpose",
    // The queues' own keys (one segment after the queue name), job logs and repeat schedules.
    keptWithoutTtl:
      /^\{bull\}:(payments|reminders|holdings-sync|whatsapp-turns):([^:]+|[^:]+:logs|repeat:.+)$/,
  },
  {
    what: 'Registrations: the insurer ids of individuals insurechat created, proven by a code or not (ids only, no personal data)',
    where:
      '`identity:unproven`, `identity:proven`; also `identity/<client id>.json` in `FILES_DIR` or the `FILES_URL` bucket (restored from there after a Redis loss)',
    expiry:
      'no expiry: as long as the individual exists at the insurer, one created from an unproven NRC must never count as on record for it',
    keptWithoutTtl: /^identity:(unproven|proven)$/,
  },
  {
    what: 'Handoff to a person (session ↔ Slack thread, masked context)',
    where: '`handoff:session:<session>`, `handoff:thread:<channel>:<ts>`, `handoff:replied:…`',
    expiry: '7 days, or when resolved; deleted by "My data"',
  },
  {
    what: 'An ended handoff (the same record, by its thread) and staff replies written after it ended, waiting for Reopen',
    where:
      '`handoff:closed:<channel>:<ts>`, `handoff:late:<channel>:<ts>`, `handoff:closed-of:<session>`',
    expiry: '7 days from Resolve, or until Reopen; deleted by "My data"',
  },
  {
    what: 'Platform redelivery guards (update and request ids only)',
    where: '`telegram-update:<id>`, `slack-request:<id>`',
    expiry: '1 hour',
  },
  {
    what: 'WhatsApp message ids handled (id and a time only): Meta redelivers for up to 7 days',
    where: '`whatsapp-seen:{<message id>}`',
    expiry: '8 days',
  },
  {
    what: "WhatsApp inbox: a customer's messages waiting for their turn, and a turn's answer not yet all sent",
    where:
      '`whatsapp-inbox:{<wa_id>}`, `whatsapp-order:{<wa_id>}`, `whatsapp-turning:{<wa_id>}`, `whatsapp-outbox:{<message id>}`, `whatsapp-tries:{<message id>}`, BullMQ `{<prefix>bull}:whatsapp-turns:*`',
    expiry:
      'while a message waits or its answer is sent (at most 1 day; the lock 2 minutes); a job removed when done, a failed one after 7 days',
  },
  {
    what: "WhatsApp service window (the phone's last message) and delivery statuses (message id and status only)",
    where: '`whatsapp-window:{<wa_id>}`, `whatsapp-status:{<message id>}`',
    expiry:
      '24 hours: the window is open while the phone\'s key exists, deleted by "My data"; a status 1 day',
  },
  {
    what: 'WhatsApp messages kept for a customer outside the window (what a template promised: the certificate, the step after a handoff), and what each template sent carried (for an SMS if Meta reports it failed)',
    where: '`whatsapp-held:{<wa_id>}`, `whatsapp-template-send:{<message id>}`',
    expiry:
      '7 days, or until the customer\'s next message, which takes them; deleted by "My data"; a template\'s 1 day',
  },
  {
    what: "WhatsApp templates' status as Meta reports it (template name and status only)",
    where: '`whatsapp-template:{<name>}`',
    expiry: '30 days after the last report',
  },
  {
    what: 'Staff look-ups and refused attempts (who, when, how, outcome, what; personal data masked), hash-chained',
    where: '`{staff-audit}` (a Redis stream) and `{staff-audit}:head` (its head record, a hash)',
    expiry:
      'kept on purpose, append-only: entries older than 1 year are trimmed (MINID) on each append, the last one trimmed kept in the head as the checkpoint',
    keptWithoutTtl: /^\{staff-audit\}(:head)?$/,
  },
  {
    what: 'Holdings index (phone → NRCs → policy, member and loan ids; no names)',
    where: '`holdings:{phone:<msisdn>}`, `holdings:{nrc:<NRC>}`, `holdings-sync:{cursor}`',
    expiry:
      '30 days after the last write; a record unseen for 30 days is no longer shown (the weekly full sync sees again what the insurer still has); deleted by "My data" through `forget(phone)`',
  },
  {
    what: 'Claims in the holdings index (claim ids and numbers by NRC, reporting phone, loan, member; no status, no amount)',
    where: '`claims:{nrc:<NRC>}`, `claims:{phone:<msisdn>}`, `claims:{of:…}`, `claims:{number:…}`',
    expiry:
      '30 days after the last write (each sync run writes them again while the insurer lists the claim); the phone\'s and its NRCs\' deleted by "My data" through `forget(phone)`',
  },
  {
    what: 'Uploaded files with no claim (a chat photo not yet posted, certificates, bordereaux)',
    where:
      '`FILES_DIR` or the `FILES_URL` bucket: `<id>.bin`, `<id>.json`, `owned/<owner hash>/<id>`',
    expiry:
      '30 days after upload (swept hourly); links shown to users 7 days; chat uploads deleted by "My data"',
  },
  {
    what: "Claim documents (files posted to an insurer's claim, from the /d/ page or a chat)",
    where: 'the same; `<id>.json` names the claim (line and id) and the status last seen',
    expiry:
      'while the insurer reports the claim (any status), then `FILES_CLAIM_RETENTION_DAYS` (365) after the status was last seen to change (swept hourly; an insurer that cannot be asked keeps them); the insurer\'s link has no expiry and answers 404 once the file is gone; a customer\'s uploads (chat or `/d/` page) deleted by "My data"',
  },
  {
    what: 'Claim reports (who reported a claim: channel and phone; documents held until staff confirm one reported by someone not on record)',
    where: '`claim-report:{<line>:<claimId>}`, `claim-held:{…}`, `claim-reporter:{<phone>}`',
    expiry:
      '1 year; "My data" takes the phone out of the reports it made (the reports stay, so documents on a claim to verify stay held)',
  },
  {
    what: "Where a phone last spoke with insurechat (channel, address, language), for claim progress told to a claim's holder",
    where:
      '`phone-reach:{<phone>}`, `phone-reach-of:{<channel>:<address>}` (an address that is not the phone)',
    expiry: '1 year after the last conversation it was vouched for in; deleted by "My data"',
  },
  {
    what: 'Logs',
    where: 'standard output (pino JSON)',
    expiry:
      "no phones, NRCs or names in clear; kept by the platform's log store (set it to 30 days)",
  },
];

/** The retention table as docs/privacy-and-limits.md shows it. */
export function retentionMarkdown(): string {
  const rows = RETENTION.map((rule) => `| ${rule.what} | ${rule.where} | ${rule.expiry} |`);
  return ['| what | where | expiry |', '| --- | --- | --- |', ...rows].join('\n');
}

/** True when `key` (the deployment's prefix removed) is kept without a TTL on purpose. */
export function keptWithoutTtl(key: string): boolean {
  return RETENTION.some((rule) => rule.keptWithoutTtl?.test(key) === true);
}
