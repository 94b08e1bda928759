/*
 * main-menu's actors: the holder's renewals due (offered first) and the "Stop renewal reminders"
 * item, over the reminders the server wires in. Without them the menu is the plain list.
 */
import { fromPromise } from 'xstate';
import type { TurnRoute } from '../src/conversation/flow.js';
import type { FlowDeps } from './flow-deps.js';
import type { HolderOffers } from './main-menu.js';

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
  };
}
