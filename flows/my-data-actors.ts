/*
 * my-data's actors: what the bot holds about the caller and its erasure, over the personal-data
 * service the server wires in. Without it the bot holds nothing it could show.
 */
import { fromPromise } from 'xstate';
import type { TurnRoute } from '../src/conversation/flow.js';
import {
  type ErasureReason,
  NO_PERSONAL_DATA,
  type PersonalDataHeld,
} from '../src/privacy/index.js';
import type { FlowDeps } from './flow-deps.js';

/** The actors my-data invokes. */
export function myDataActors(deps: FlowDeps) {
  return {
    held: fromPromise<PersonalDataHeld, { route: TurnRoute | null }>(async ({ input }) =>
      deps.privacy ? deps.privacy.held(input.route) : NO_PERSONAL_DATA,
    ),
    erase: fromPromise<
      { paymentsKept: number },
      { route: TurnRoute | null; reason: ErasureReason }
    >(async ({ input }) =>
      deps.privacy ? deps.privacy.erase(input.route, input.reason) : { paymentsKept: 0 },
    ),
  };
}
