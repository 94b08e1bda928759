/*
 * main-menu's actors: the holder's renewals due (offered first) and the "Stop renewal reminders"
 * item, over the reminders the server wires in (without them the menu is the plain list); the
 * privacy notice's consent, over the personal-data service.
 */
import { fromPromise } from 'xstate';
import type { TurnRoute } from '../src/conversation/flow.js';
import { SANDBOX_PRIVACY_NOTICE } from '../src/privacy/index.js';
import type { FlowDeps } from './flow-deps.js';
import type { ConsentCheck, HolderOffers } from './main-menu.js';

/** The actors main-menu invokes. */
export function mainMenuActors(deps: FlowDeps) {
  return {
    holderOffers: fromPromise<HolderOffers, { route: TurnRoute | null }>(async ({ input }) => {
      if (!deps.reminders || !input.route) return { offers: [], remindersOn: false };
      return deps.reminders.offersFor(input.route);
    }),
    stopReminders: fromPromise<void, { route: TurnRoute | null }>(async ({ input }) => {
      if (deps.reminders && input.route) await deps.reminders.stop(input.route);
    }),
    startReminders: fromPromise<void, { route: TurnRoute | null }>(async ({ input }) => {
      if (deps.reminders && input.route) await deps.reminders.start(input.route);
    }),
    // Without the privacy service nothing could record consent: the notice is not asked.
    consented: fromPromise<ConsentCheck, { route: TurnRoute | null }>(async ({ input }) => ({
      agreed: deps.privacy ? await deps.privacy.consented(input.route) : true,
      notice: deps.privacy?.notice ?? SANDBOX_PRIVACY_NOTICE,
    })),
    agree: fromPromise<void, { route: TurnRoute | null }>(async ({ input }) => {
      await deps.privacy?.agree(input.route);
    }),
    decline: fromPromise<void, { route: TurnRoute | null }>(async ({ input }) => {
      await deps.privacy?.refused(input.route, 'notice');
    }),
  };
}
