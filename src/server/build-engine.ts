import {
  createFlowRegistry,
  type FlowFileStore,
  mainMenuFlow,
  reportingOnce,
} from '../../flows/index.js';
import { telegramEngineMiddleware } from '../channels/telegram/index.js';
import { ussdMiddleware } from '../channels/ussd/index.js';
import { whatsappEngineMiddleware } from '../channels/whatsapp/index.js';
import { chatFilesOf, phoneReachMiddleware } from '../claim-documents/index.js';
import {
  type ConversationEngine,
  chatPolicies,
  createTurnEngine,
  type FlowRegistry,
  type Handoff,
  keypadPolicy,
  type Prompt,
  type TurnEngine,
  type TurnRoute,
} from '../conversation/index.js';
import { readAtMost, storedType } from '../files/index.js';
import { handoffMiddleware } from '../handoff/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import { isMenuShortcut } from '../reminders/index.js';
import type { Insurer } from './build-insurer.js';
import type { ServerServices } from './build-services.js';
import type { ServerStores } from './build-stores.js';
import type { NotifierDirectory } from './notifier-directory.js';
import type { PaymentTrackerSeam } from './payment-tracker.js';
import type { ServerContext } from './server-context.js';
import { NoticeUnreachableError, StaffChannelUnavailableError } from './server-errors.js';

/** The turn engine every channel uses, and whether this server owns (and so closes) it. */
export interface ServerEngine {
  readonly engine: TurnEngine;
  /** Undefined when the caller handed in its own engine. */
  readonly owned: ConversationEngine | undefined;
  /**
   * Where the handoff policy finds the handoff, built after the engine (it reads conversations
   * through it): src/server seats it once the channels' handoff exists.
   */
  readonly handoffSeat: { current: Handoff | undefined };
}

/** What the engine and its flows are built over. */
interface EngineInputs {
  readonly stores: ServerStores;
  readonly insurer: Insurer;
  readonly services: ServerServices;
  readonly notifiers: NotifierDirectory;
  /** The payment service, attached after the engine: starts a handset's payment after its call. */
  readonly payments: PaymentTrackerSeam;
}

/** Builds the flows over the services, then the engine over the sessions (unless given one). */
export function buildEngine(context: ServerContext, inputs: EngineInputs): ServerEngine {
  const handoffSeat: { current: Handoff | undefined } = { current: undefined };
  if (context.deps.engine) return { engine: context.deps.engine, owned: undefined, handoffSeat };
  const flows = context.deps.flows ?? buildFlows(context, inputs);
  const prefetch = inputs.services.reminders.service.prefetch;
  const owned = createTurnEngine({
    store: inputs.stores.sessions,
    flows,
    logger: context.logger.child({ module: 'engine' }),
    // The holder's renewal card comes with the session: the entry menu costs no round trip.
    ...(prefetch ? { prefetch } : {}),
    // What the handoff (reading a conversation for staff), the chat channels' conversation
    // policies (language, a person, the menu and reminder buttons, files), USSD (paging, resume,
    // a gateway's retry), Telegram and WhatsApp need of a turn, under its lock.
  }).use(
    // Outermost: where a vouched-for phone spoke, in the language the turn answered in.
    phoneReachMiddleware({
      reach: inputs.services.phoneReach,
      consented: (route) => inputs.services.personalData.consented(route),
      logger: context.logger.child({ module: 'phone-reach' }),
    }),
    handoffMiddleware,
    ...chatPolicies({
      handoff: () => handoffSeat.current,
      languages: inputs.services.languages,
      files: chatFilesOf(inputs.stores.claimFiles),
      shortcuts: { entryFlow: mainMenuFlow.id, isShortcut: isMenuShortcut },
      logger: context.logger.child({ module: 'conversation-policy' }),
    }),
    // USSD's language and a person, decided before its middleware shows them on its screens.
    keypadPolicy({
      handoff: () => handoffSeat.current,
      languages: inputs.services.languages,
      askLanguage: context.config.ussd.askLanguage,
      logger: context.logger.child({ module: 'conversation-policy' }),
    }),
    ussdMiddleware,
    telegramEngineMiddleware,
    whatsappEngineMiddleware,
  );
  return { engine: owned, owned, handoffSeat };
}

/** The production flow registry, its side effects wired to the server's services. */
function buildFlows(context: ServerContext, inputs: EngineInputs): FlowRegistry {
  const { config, logger } = context;
  const { services, notifiers, payments } = inputs;
  const reminders = services.reminders.service;
  const files = inputs.stores.files;
  const flowFiles: FlowFileStore = {
    async save(file) {
      // Kept under the type its bytes show, never only the one it was fetched with.
      const bytes = await readAtMost(file.body);
      const { id } = await files.put(bytes, {
        contentType: await storedType(bytes, file.contentType),
        fileName: file.fileName,
      });
      return { url: files.signedUrl(id) };
    },
  };
  const staffChannel = config.slack?.digestChannel;
  return createFlowRegistry(
    {
      client: inputs.insurer.client,
      files: flowFiles,
      // Cover details and certificate links by SMS, through the USSD channel's notifier.
      sms: services.sms,
      // The SMS's language read with the caller's next turn, not on its own.
      smsSoon: (from, phone) => {
        const caller = normaliseCaller(from);
        const recipient = normaliseCaller(phone);
        if (!caller || !recipient) return;
        reminders.expectSms(
          { channel: 'ussd', address: caller },
          { channel: 'ussd', address: recipient },
        );
      },
      payments: {
        start: (attempt, pay) => services.attempts.start(attempt, pay),
        check: (reference, route) => services.attempts.check(reference, route),
        unsettled: (route, item, vehicle) => services.attempts.unsettled(route, item, vehicle),
        // A USSD caller's mobile-money payment starts after the call ends (USSD_PAY_DELAY_MS).
        ...(context.deps.payDuringCall
          ? {}
          : {
              later: (route: TurnRoute) => {
                const service = payments.service();
                if (!service) throw new Error('the payment service is not attached yet');
                return service.proceedLater(route);
              },
            }),
      },
      reminders,
      holdings: services.holdings,
      registrations: services.registrations,
      // Every SMS, payment prompt to another number and typed look-up is counted (src/limits).
      limits: services.limits,
      oneTimeCodes: services.oneTimeCodes,
      // `/insure sync`: a full pass now (a phone changed at the insurer moves at once).
      syncHoldings: async () => {
        await services.holdingsSync.runNow({ full: true });
        return { complete: (await services.holdings.completeness()).complete };
      },
      // A status word outside the spec's is shown as "could not confirm" (a claim's as "the
      // insurer is handling this claim"); the log says which word, once per word per process. A
      // status word is the insurer's vocabulary, never personal data.
      onUnknownStatus: reportingOnce((subject, status) =>
        logger.warn(
          { event: 'insurer.unknownStatus', subject, status: status.slice(0, 40) },
          'insurer status not in the spec',
        ),
      ),
      // A cover lookup's call not read in time or failed: that cover is said to be unknown.
      onUnknownAnswer: (operation, reason) =>
        logger.warn(
          { event: 'cover.unknown', operation, reason },
          'cover not read: said as unknown',
        ),
      // A claim's confirmation, on the user's own channel (SMS for USSD callers).
      notify: async (route, prompt) => {
        const notifier = notifiers.find(route.channel);
        try {
          if (!notifier) throw new NoticeUnreachableError(route.channel);
          await notifier.notify(route, prompt);
        } catch (error) {
          logger.warn({ err: error, channel: route.channel, key: prompt.key }, 'notice not sent');
          throw error;
        }
      },
      claimUploads: {
        link: (claim) =>
          services.uploadLinks.link({
            line: claim.line,
            claimId: claim.claimId,
            phone: claim.phone,
            locale: claim.locale,
          }),
      },
      // A chat's photo goes to the insurer as the /d/ page's files do: kept link and name.
      claimEvidence: services.claimEvidence,
      // Who reported each claim: the member is told once, staff see the reporter, documents from
      // someone not on record wait for staff.
      claimReports: services.claimReports,
      serviceCode: config.ussd.serviceCode,
      // Every claim intimated, and those reported from a phone not on record for the member:
      // the staff's channel hears of them.
      ...(staffChannel ? { staff: staffNotice(context, notifiers, staffChannel) } : {}),
      privacy: services.personalData,
    },
    context.deps.addedFlows,
  );
}

/**
 * Posts to the staff's Slack channel through the Slack channel's notifier. Never rejects: the
 * claim it tells of exists already, so a failed post is logged rather than failing the caller.
 */
function staffNotice(context: ServerContext, notifiers: NotifierDirectory, channel: string) {
  return async (prompt: Prompt): Promise<void> => {
    try {
      const slack = notifiers.find('slack');
      if (!slack) throw new StaffChannelUnavailableError();
      await slack.notify({ channel: 'slack', address: `:${channel}:`, locale: 'en' }, prompt);
    } catch (error) {
      context.logger.warn(
        { event: 'staff.notice.failed', key: prompt.key, errorName: (error as Error).name },
        'staff notice not posted',
      );
    }
  };
}
