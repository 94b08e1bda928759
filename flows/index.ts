/*
 * The conversations. Each flow is an XState machine whose API calls are actors; each flow's
 * actors live beside it (`<flow>-actors.ts`) and are built from the same deps, so production and
 * tests differ only in the deps they pass to createFlowRegistry.
 */
import { AUDIENCES, type FlowRegistry } from '../src/conversation/flow.js';
import { claimIntimationFlow } from './claim-intimation.js';
import { claimIntimationActors } from './claim-intimation-actors.js';
import { coverStatusFlow } from './cover-status.js';
import { coverStatusActors } from './cover-status-actors.js';
import type { FlowDeps } from './flow-deps.js';
import { mainMenuFlow } from './main-menu.js';
import { mainMenuActors } from './main-menu-actors.js';
import { motorQuoteFlow } from './motor-quote.js';
import { motorQuoteActors } from './motor-quote-actors.js';
import { myDataFlow } from './my-data.js';
import { myDataActors } from './my-data-actors.js';
import { staffDeskFlow } from './staff-desk.js';
import { staffDeskActors } from './staff-desk-actors.js';
import { travelIssueFlow } from './travel-issue.js';
import { travelIssueActors } from './travel-issue-actors.js';
import { claimUnfinished, motorUnfinished, travelUnfinished } from './unfinished.js';

/** Builds every flow with its actors provided from `deps`. */
export function createFlowRegistry(deps: FlowDeps): FlowRegistry {
  return {
    'main-menu': {
      ...mainMenuFlow,
      // The entry menu of every audience: the engine opens it on a fresh session.
      entryFor: AUDIENCES,
      machine: mainMenuFlow.machine.provide({ actors: mainMenuActors(deps) }),
    },
    'motor-quote': {
      ...motorQuoteFlow,
      unfinished: motorUnfinished,
      machine: motorQuoteFlow.machine.provide({ actors: motorQuoteActors(deps) }),
    },
    'travel-issue': {
      ...travelIssueFlow,
      unfinished: travelUnfinished,
      machine: travelIssueFlow.machine.provide({ actors: travelIssueActors(deps) }),
    },
    'claim-intimation': {
      ...claimIntimationFlow,
      unfinished: claimUnfinished,
      machine: claimIntimationFlow.machine.provide({ actors: claimIntimationActors(deps) }),
    },
    'cover-status': {
      ...coverStatusFlow,
      machine: coverStatusFlow.machine.provide({ actors: coverStatusActors(deps) }),
    },
    'staff-desk': {
      ...staffDeskFlow,
      machine: staffDeskFlow.machine.provide({ actors: staffDeskActors(deps) }),
    },
    'my-data': {
      ...myDataFlow,
      machine: myDataFlow.machine.provide({ actors: myDataActors(deps) }),
    },
  };
}

export { claimIntimationFlow, claimIntimationMachine } from './claim-intimation.js';
export { claimDocumentsNeeded } from './claim-intimation-actors.js';
export { coverStatusFlow, coverStatusMachine } from './cover-status.js';
export type {
  FlowClaimUploads,
  FlowDeps,
  FlowFileStore,
  FlowPayments,
  FlowReminders,
  PaidPolicy,
  PaymentAttemptRequest,
} from './flow-deps.js';
export { mainMenuFlow, mainMenuMachine } from './main-menu.js';
export { motorQuoteFlow, motorQuoteMachine } from './motor-quote.js';
export { myDataFlow, myDataMachine } from './my-data.js';
export { parseStaffCommand, staffDeskFlow, staffDeskMachine } from './staff-desk.js';
export { reportingOnce, statusWord } from './status-words.js';
export { travelIssueFlow, travelIssueMachine } from './travel-issue.js';
