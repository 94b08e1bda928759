import { ownerLookup } from '../../flows/index.js';
import {
  createOneTimeCodes,
  createRegistrations,
  type OneTimeCodes,
  REGISTRATIONS_FOLDER,
  type Registrations,
} from '../access/index.js';
import type { Claim } from '../api/index.js';
import {
  type ClaimEvidence,
  type ClaimProgressOptions,
  type ClaimReports,
  createClaimEvidence,
  createClaimProgress,
  createClaimReports,
  createPhoneReach,
  createUploadLinks,
  insurerClaimReport,
  type PhoneReach,
  type UploadLinks,
} from '../claim-documents/index.js';
import { type CallerLanguages, DEFAULT_LOCALE, type Prompt } from '../conversation/index.js';
import {
  type ClaimWatcher,
  createHoldingsIndex,
  createHoldingsScheduler,
  type HoldingsIndex,
  type HoldingsScheduler,
  syncHoldings,
} from '../holdings/index.js';
import { createLimits, type Limits } from '../limits/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import { createPaymentAttempts, type PaymentAttempts } from '../payments/index.js';
import {
  consentFirstLanguages,
  createErasureTombstones,
  type ErasureTombstones,
  holdingsIndexStore,
  liftingErased,
  type PersonalData,
  type PersonalDataStore,
  type StaffAuditLog,
  skippingErased,
  subjectHandset,
} from '../privacy/index.js';
import { createWhatsAppStore } from '../push/index.js';
import { createReminderWiring, type ReminderWiring } from '../reminders/index.js';
import type { Insurer } from './build-insurer.js';
import type { ServerStores } from './build-stores.js';
import { metrics } from './metrics.js';
import type { NotifierDirectory } from './notifier-directory.js';
import type { PaymentTrackerSeam } from './payment-tracker.js';
import { createPersonalDataWiring } from './personal-data-wiring.js';
import type { ServerContext } from './server-context.js';
import { NoticeUnreachableError, SmsUnavailableError } from './server-errors.js';

/** How often files past their retention are deleted. */
const FILE_SWEEP_INTERVAL_MS = 3_600_000;

/** The services the flows and channels use, built before the engine. */
export interface ServerServices {
  /** Payment attempts, each started once across instances. */
  readonly attempts: PaymentAttempts;
  readonly reminders: ReminderWiring;
  readonly holdings: HoldingsIndex;
  readonly holdingsSync: HoldingsScheduler;
  /** Consent and "My data", with consent skipped when the caller asked so. */
  readonly personalData: PersonalData;
  readonly audit: StaffAuditLog;
  /** SMS to a phone (cover details, links, receipts), in the language its owner chose. */
  readonly sms: (phone: string, prompt: Prompt) => Promise<void>;
  /** Signed links to the claim-documents upload page. */
  readonly uploadLinks: UploadLinks;
  /**
   * Callers' languages as the channels read and pick them: a pick made before the privacy
   * notice waits in this process until it is agreed (nothing is stored about a phone before).
   */
  readonly languages: CallerLanguages;
  /** Stored files posted to claims as their evidence: the one way, on every channel. */
  readonly claimEvidence: ClaimEvidence;
  /** Who reported each claim, and documents held until staff confirm one reported by another. */
  readonly claimReports: ClaimReports;
  /** Where each phone last spoke with insurechat (the engine records it; claim progress reads it). */
  readonly phoneReach: PhoneReach;
  /** One file sweep, asking the insurer about claims' files (what the hourly timer runs). */
  readonly sweepFiles: () => Promise<number>;
  /** The individuals insurechat registered, and whether their NRC was proven (src/access). */
  readonly registrations: Registrations;
  /** How often SMS, codes, payment prompts and look-ups may be asked for, on every instance. */
  readonly limits: Limits;
  /** One-time codes that prove a typed NRC to the phone on record for it (src/access). */
  readonly oneTimeCodes: OneTimeCodes;
}

/** What the services are built over. */
interface ServiceInputs {
  readonly stores: ServerStores;
  readonly insurer: Insurer;
  readonly notifiers: NotifierDirectory;
  readonly payments: PaymentTrackerSeam;
}

/** Builds payments' attempts, reminders, holdings and personal data, in that order. */
export async function buildServices(
  context: ServerContext,
  inputs: ServiceInputs,
): Promise<ServerServices> {
  const { logger, keyPrefix } = context;
  const { stores, insurer } = inputs;
  // Each attempt starts once across instances; the flows hand over what they pay and where the
  // outcome goes, explicitly (no ambient turn context).
  const attempts = createPaymentAttempts({
    redis: stores.redis,
    prefix: keyPrefix,
    readStatus: (reference) => insurer.client.call('getTransactionStatus', { path: { reference } }),
    tracker: inputs.payments.tracker,
    logger,
  });
  const reminders = await buildReminders(context, inputs);
  // Erasures remembered as keyed hashes (a key derived from FILES_SIGNING_SECRET, the server's
  // one stable signing secret): the holdings sync skips what "My data" erased.
  const tombstones = createErasureTombstones(
    stores.store,
    keyPrefix,
    context.config.files.signingSecret,
  );
  // Kept beside the sessions, and copied to the file store (disk or the shared bucket) so a Redis
  // loss forgets none: an individual created from an unproven NRC grants nothing by it.
  const registrations =
    context.deps.registrations ??
    createRegistrations(stores.store, keyPrefix, {
      durable: stores.files.records(REGISTRATIONS_FOLDER),
    });
  // Codes kept as keyed hashes under a key derived from the one stable signing secret.
  const oneTimeCodes = createOneTimeCodes(
    stores.store,
    keyPrefix,
    context.config.files.signingSecret,
  );
  // Beside the sessions: who reported each claim, and files held back from a claim to verify.
  const claimReports = createClaimReports(stores.store, keyPrefix);
  // Where each phone last spoke with insurechat: claim progress reaches a claim's holder there.
  const phoneReach = createPhoneReach(stores.store, keyPrefix);
  const { holdings, holdingsSync } = await buildHoldings(
    context,
    inputs,
    tombstones,
    registrations,
    claimProgressOf(context, inputs, claimReports, {
      reach: phoneReach,
      // By the access rule, as a flow would see the claim's owners (one lookup per claim).
      async holdersOf(line, claim) {
        const owners = ownerLookup(insurer.client, registrations);
        const { phones } = await owners.claimOwners(line, claim as Claim);
        return phones.filter((phone): phone is string => typeof phone === 'string');
      },
    }),
  );
  const sweepFiles = scheduleFileSweep(context, inputs);
  const sms = smsSender(reminders, inputs.notifiers);
  // Claim documents from any phone: the SMS link's page keeps files here and posts their URLs.
  const uploadLinks = createUploadLinks({
    signingSecret: context.config.files.signingSecret,
    publicUrl: context.publicUrl,
  });
  // Consent, "My data" and the staff audit (Data Protection Act No. 3 of 2021).
  const privacy = createPersonalDataWiring({
    store: stores.store,
    prefix: keyPrefix,
    reminders: reminders.service,
    handoffs: stores.handoffs,
    files: stores.files,
    uploadOwnerOf: (phone) => uploadLinks.ownerOf(phone),
    payments: inputs.payments.service,
    // "My data" erases the phone's holdings index entries too (its `forget(phone)`). No count:
    // the policies it names are the ones the reminders count already, and "We hold" counts once.
    extraStores: [
      holdingsIndexStore(holdings, tombstones),
      claimReportsStore(claimReports, phoneReach),
      // A WhatsApp conversation's held messages (what a template promised) and its window.
      whatsappPersonalData(createWhatsAppStore(stores.store, keyPrefix)),
    ],
    sms,
    logger,
    notice: context.config.privacy,
    onAgreed: (subject) => pending.agreed(subject),
    onRefused: (subject) => pending.declined(subject),
    auditSecret: context.config.audit.secret,
    ...(context.deps.auditClock ? { auditClock: context.deps.auditClock } : {}),
  });
  const personalData: PersonalData =
    context.deps.askConsent === false
      ? { ...privacy.personalData, consented: async () => true }
      : privacy.personalData;
  const pending = consentFirstLanguages({
    languages: reminders.service.languages,
    store: stores.store,
    prefix: keyPrefix,
    secret: context.config.files.signingSecret,
    consented: (holder) =>
      personalData.consented({
        ...holder,
        sessionKey: `${holder.channel}:${holder.address}`,
        locale: DEFAULT_LOCALE,
      }),
  });
  return {
    limits: buildLimits(context, stores),
    attempts,
    reminders,
    holdings,
    holdingsSync,
    registrations,
    oneTimeCodes,
    personalData,
    audit: privacy.audit,
    sms,
    uploadLinks,
    languages: pending.languages,
    claimEvidence: createClaimEvidence(insurer.client, stores.files, claimReports),
    claimReports,
    phoneReach,
    sweepFiles,
  };
}

/**
 * Claim progress told to each claim's reporter in the conversation they reported it in, and to
 * its holders where their phone last spoke, as the sync reads the claim books (src/claim-documents'
 * claim-progress.ts).
 */
function claimProgressOf(
  context: ServerContext,
  inputs: ServiceInputs,
  reports: ClaimReports,
  holders: Pick<ClaimProgressOptions, 'reach' | 'holdersOf'>,
): ClaimWatcher {
  return createClaimProgress({
    ...holders,
    store: inputs.stores.store,
    prefix: context.keyPrefix,
    reports,
    logger: context.logger.child({ module: 'claim-progress' }),
    async tell(reach, prompt) {
      const notifier = inputs.notifiers.find(reach.channel);
      if (!notifier) throw new NoticeUnreachableError(reach.channel);
      await notifier.notify(reach, prompt);
    },
  });
}

/**
 * "My data" for the claims a phone reported: its number leaves their reports (the reports stay,
 * so documents on a claim to verify stay held). Nothing is counted: the claims are the insurer's.
 */
function claimReportsStore(reports: ClaimReports, reach: PhoneReach): PersonalDataStore {
  return {
    name: 'claim-reports',
    held: async () => ({}),
    async forget(subject) {
      const phone = subjectHandset(subject);
      if (phone !== undefined) {
        await reports.forget(phone);
        // Where the phone last spoke is its owner's data too.
        await reach.forget(phone);
      }
      // A conversation that names no phone (a Telegram chat) takes the phone it reached with it.
      await reach.forgetAddress(subject);
      return {};
    },
  };
}

/**
 * "My data" for a WhatsApp conversation: its held messages and window are erased with the rest of
 * what is held about it (its `wa_id` is the subject's address).
 */
export function whatsappPersonalData(
  store: Pick<ReturnType<typeof createWhatsAppStore>, 'forget'>,
): PersonalDataStore {
  return {
    name: 'whatsapp',
    // Counted nowhere: held messages repeat what the reminders and payments already count.
    held: async () => ({}),
    async forget(subject) {
      if (subject.channel === 'whatsapp') await store.forget(subject.address);
      return {};
    },
  };
}

/**
 * The limits, counted beside the sessions (Redis, shared by every instance) or in this process.
 * Callers and targets are keyed by a hash under FILES_SIGNING_SECRET, the one secret every
 * instance shares, so two instances count the same phone under the same key.
 */
function buildLimits(context: ServerContext, stores: ServerStores): Limits {
  const log = context.logger.child({ module: 'limits' });
  return createLimits({
    config: context.config.limits,
    redis: stores.redis,
    prefix: context.keyPrefix,
    secret: context.config.files.signingSecret,
    onRefused: (kind, scope) => metrics.limitRefusals.inc({ kind, scope }),
    // The store's error only: the request's caller and target stay out of the log.
    onError: (err, kind) => log.error({ err, kind }, 'limit store failed'),
  });
}

/**
 * Renewal reminders: contacts beside the sessions (Redis, or this process), the scan on a BullMQ
 * job scheduler or a timer. Notifiers are read when a reminder is sent.
 */
async function buildReminders(
  context: ServerContext,
  inputs: ServiceInputs,
): Promise<ReminderWiring> {
  const { config, deps, logger, keyPrefix } = context;
  const slackDigest = config.slack?.digestChannel;
  const wiring = await createReminderWiring({
    redis: inputs.stores.redis,
    prefix: keyPrefix,
    client: inputs.insurer.client,
    notifiers: inputs.notifiers.live,
    logger,
    serviceCode: config.ussd.serviceCode,
    ...(deps.reminderClock ? { now: deps.reminderClock } : {}),
    onSent: (milestone, channel) =>
      metrics.remindersSent.inc({ milestone: String(milestone), channel }),
    onRenewalAfterReminder: (channel) => metrics.renewalsAfterReminder.inc({ channel }),
    onCreditLifeSent: (milestone, channel) =>
      metrics.remindersSent.inc({ milestone: String(milestone), channel }),
    ...(slackDigest
      ? { digest: { channel: slackDigest, slack: () => inputs.notifiers.find('slack') } }
      : {}),
  });
  context.closers.last(() => wiring.close());
  return wiring;
}

/**
 * Who holds what: beside the sessions, filled by sales and by a sync of the insurer's lists. The
 * sync leaves out erased phones and NRCs; a sale (a paid purchase) lifts their erasure.
 */
async function buildHoldings(
  context: ServerContext,
  inputs: ServiceInputs,
  tombstones: ErasureTombstones,
  registrations: Registrations,
  claimWatcher: ClaimWatcher,
): Promise<{ holdings: HoldingsIndex; holdingsSync: HoldingsScheduler }> {
  const { logger, keyPrefix } = context;
  const { redis } = inputs.stores;
  const index = createHoldingsIndex(inputs.stores.store, keyPrefix);
  const holdings = liftingErased(index, tombstones);
  const syncLogger = logger.child({ module: 'holdings' });
  const synced = skippingErased(index, tombstones, (skipped) =>
    // Counts only: which phone or NRC was skipped is what the erasure keeps from the logs.
    syncLogger.info({ event: 'privacy.erasure.kept', skipped }, 'erased holders left out'),
  );
  const sync = (run: { full?: boolean } = {}) =>
    syncHoldings({
      client: inputs.insurer.client,
      index: synced,
      logger: syncLogger,
      registrations,
      claimWatcher,
      ...(run.full ? { full: true } : {}),
    });
  const holdingsSync = await createHoldingsScheduler({ redis, prefix: keyPrefix, sync, logger });
  context.closers.last(() => holdingsSync.close());
  // An index never filled (first start, or Redis lost) is filled at once, not on the schedule's
  // next tick (15 minutes away in this process). The embedded sandbox's book is small and
  // seeded now: indexed before the first caller; a real insurer's is read in the background.
  // A failed first sync does not stop the server: the schedule tries again.
  if ((await holdings.cursor()).fullAt === undefined) {
    const first = holdingsSync
      .runNow()
      .catch((err: unknown) => logger.error({ err }, 'first holdings sync failed'));
    if (inputs.insurer.sandbox) await first;
  }
  return { holdings, holdingsSync };
}

/**
 * Files past their retention go hourly (and once at start); the timer never holds the process.
 * A claim's files are asked about at the insurer, through its client. Resolves the sweep.
 */
function scheduleFileSweep(context: ServerContext, inputs: ServiceInputs): () => Promise<number> {
  const report = insurerClaimReport(inputs.insurer.client);
  const sweep = () => inputs.stores.files.sweep(report);
  const run = () =>
    void sweep().catch((err: unknown) => context.logger.warn({ err }, 'file sweep failed'));
  run();
  const timer = setInterval(run, FILE_SWEEP_INTERVAL_MS);
  timer.unref();
  context.closers.push(async () => clearInterval(timer));
  return sweep;
}

/**
 * SMS to a phone through the USSD channel's own notifier (cover details, links, receipts), in the
 * language its owner chose on USSD, else English.
 */
function smsSender(
  reminders: ReminderWiring,
  notifiers: NotifierDirectory,
): (phone: string, prompt: Prompt) => Promise<void> {
  const localeOf = async (phone: string): Promise<string> => {
    const msisdn = normaliseCaller(phone);
    if (!msisdn) return DEFAULT_LOCALE;
    try {
      const chosen = await reminders.service.languages.chosen({ channel: 'ussd', address: msisdn });
      return chosen ?? DEFAULT_LOCALE;
    } catch {
      return DEFAULT_LOCALE; // the details still go, in English
    }
  };
  return async (phone, prompt) => {
    const notifier = notifiers.builtIn('ussd');
    if (!notifier) throw new SmsUnavailableError();
    await notifier.notify(
      { channel: 'ussd', address: phone, locale: await localeOf(phone) },
      prompt,
    );
  };
}
