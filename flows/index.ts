/*
 * The conversations. Each flow is an XState machine whose API calls are actors; each flow's
 * actors live beside it (`<flow>-actors.ts`) and are built from the same deps, so production and
 * tests differ only in the deps they pass to createFlowRegistry.
 */
import {
  AUDIENCES,
  type Audience,
  type FlowDefinition,
  type FlowRegistry,
} from '../src/conversation/flow.js';
import { claimIntimationFlow } from './claim-intimation.js';
import { claimIntimationActors } from './claim-intimation-actors.js';
import { coverStatusFlow } from './cover-status.js';
import { coverStatusActors } from './cover-status-actors.js';
import type { FlowDeps } from './flow-deps.js';
import { type MenuEntries, mainMenuFlow, mainMenuWith } from './main-menu.js';
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

/**
 * Every flow's id: the one list of them. The registry below holds exactly these (the type says
 * so); the engine takes them as opaque strings, and each flow's start schema says what it takes.
 */
export type FlowId =
  | 'main-menu'
  | 'motor-quote'
  | 'travel-issue'
  | 'claim-intimation'
  | 'cover-status'
  | 'staff-desk'
  | 'my-data';

/** Every registered flow by its id, as {@link createFlowRegistry} builds them. */
export type Flows = Readonly<Record<FlowId, FlowDefinition>>;

/**
 * A flow registered beside the ones above without editing them, the engine or a channel (a new
 * product's first cut, a fixture flow in a test): its definition, with its actors provided, and
 * where the entry menu lists it. Its words come from the catalogues (`menu.choice.<choice>`).
 */
export interface AddedFlow {
  readonly definition: FlowDefinition;
  readonly menu?: { readonly choice: string; readonly audiences: readonly Audience[] };
}

/**
 * Builds every flow with its actors provided from `deps`, plus `added` ones (each listed on the
 * entry menu after the menu's own entries, where it says).
 */
export function createFlowRegistry(
  deps: FlowDeps,
  added: readonly AddedFlow[] = [],
): Flows & FlowRegistry {
  const more: Record<Audience, Array<readonly [string, string]>> = {
    policyholder: [],
    'funeral-member': [],
    staff: [],
  };
  for (const { definition, menu } of added) {
    for (const audience of menu?.audiences ?? [])
      more[audience].push([menu?.choice ?? '', definition.id]);
  }
  const menu: MenuEntries = more;
  const mainMenu = added.length === 0 ? mainMenuFlow.machine : mainMenuWith(menu);
  const flows: Flows = {
    'main-menu': {
      ...mainMenuFlow,
      // The entry menu of every audience: the engine opens it on a fresh session.
      entryFor: AUDIENCES,
      machine: mainMenu.provide({ actors: mainMenuActors(deps) }),
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
  const extra = Object.fromEntries(added.map(({ definition }) => [definition.id, definition]));
  for (const id of Object.keys(extra)) {
    if (Object.hasOwn(flows, id)) throw new Error(`Flow ${id} is registered already`);
  }
  return { ...flows, ...extra };
}

export {
  ClaimIntimationStart,
  claimIntimationFlow,
  claimIntimationMachine,
  HeldCover,
} from './claim-intimation.js';
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
export { MainMenuStart, mainMenuFlow, mainMenuMachine } from './main-menu.js';
export { MotorQuoteStart, motorQuoteFlow, motorQuoteMachine } from './motor-quote.js';
export { myDataFlow, myDataMachine } from './my-data.js';
// For src/server's claim progress: who is on record for a claim, by the access rule.
export { type OwnerLookup, ownerLookup } from './record-owners.js';
export {
  parseStaffCommand,
  STAFF_TOPICS,
  StaffDeskStart,
  type StaffTopic,
  staffDeskFlow,
  staffDeskMachine,
} from './staff-desk.js';
export { reportingOnce, statusWord } from './status-words.js';
export { travelIssueFlow, travelIssueMachine } from './travel-issue.js';
