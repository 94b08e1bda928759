import { and, assertEvent, assign, fromPromise, raise, setup } from 'xstate';
import { z } from 'zod';
import type {
  Audience,
  FlowContextBase,
  FlowDefinition,
  FlowInput,
  FlowOutput,
  FlowStart,
  TurnRoute,
} from '../src/conversation/flow.js';
import { TALK_TO_A_PERSON } from '../src/conversation/handoff.js';
import { CHOOSE_LANGUAGE } from '../src/conversation/language.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { type PrivacyNotice, SANDBOX_PRIVACY_NOTICE } from '../src/privacy/index.js';
import {
  REMINDERS_OFF_CHOICE as REMINDERS_OFF,
  REMINDERS_ON_CHOICE as REMINDERS_ON,
  RENEW_CHOICE_PREFIX,
  type RenewalOffer,
} from '../src/reminders/index.js';
import { ask, CANCELLED, choice, chose, end, PICK_FROM_LIST, replyGuards } from './support.js';

/**
 * Where the entry menu starts: a menu entry chosen outside the menu (Telegram's /status, a
 * reminder's "Renew now"), taken as its first answer.
 */
export const MainMenuStart = z.object({ pick: z.string().optional() });
/** What the entry menu takes as its start. */
export type MainMenuStart = z.infer<typeof MainMenuStart>;

/** Menu entries per audience: choice id → the flow it hands over to (its label `menu.choice.<id>`). */
export type MenuEntries = Readonly<Record<Audience, ReadonlyArray<readonly [string, string]>>>;

/** The menu's entries for the flows of flows/index.ts. */
const ENTRIES: MenuEntries = {
  policyholder: [
    ['motor', 'motor-quote'],
    ['travel', 'travel-issue'],
    ['policies', 'cover-status'],
    ['claim', 'claim-intimation'],
  ],
  'funeral-member': [['household', 'cover-status']],
  staff: [['desk', 'staff-desk']],
};

/** The holder's renewals due and whether their reminders are on (see FlowReminders). */
export interface HolderOffers {
  offers: RenewalOffer[];
  remindersOn: boolean;
  /** The holder turned their reminders off: the menu offers to turn them back on. */
  remindersOff?: boolean;
}

/** Context of the main menu: the audience, the holder's renewals due, and the flow picked. */
interface MainMenuContext extends FlowContextBase {
  audience: Audience;
  tries: number;
  route: TurnRoute | null;
  holder: HolderOffers;
  answers: { next?: string; start?: FlowStart };
  /** The entry picked, held while the privacy notice is asked; answered once it is agreed. */
  picked: { next?: string; start?: FlowStart };
  /** An entry chosen before the menu opened (its start's `pick`), taken once the menu shows. */
  startPick?: string | null;
  /** Who the full notice names (read with the consent check); absent in older snapshots. */
  notice?: PrivacyNotice;
}

/** What the consent check answers: agreed already, and who the notice names. */
export interface ConsentCheck {
  readonly agreed: boolean;
  readonly notice: PrivacyNotice;
}

/** The menu entry that lists the renewals due when there are several. */
const RENEW_LIST = 'renew-list';
/** The menu entry "My data", last on a customer's menu: what the bot holds, and erasing it. */
const MY_DATA = 'my-data';

/** The closing screen of a declined notice: nothing is kept, the session included. */
const DECLINED = end('privacy.declined');

/**
 * The privacy notice (s.15 consent): agree, decline, or read the full notice first. The full one
 * names the controller and its contact, and is read whole (paged on USSD, never shortened).
 */
function noticePrompt(
  full: boolean,
  note: boolean,
  notice: PrivacyNotice = SANDBOX_PRIVACY_NOTICE,
): Prompt {
  const prompt = ask(full ? 'privacy.noticeFull' : 'privacy.notice', 'choice', {
    choices: [
      choice('agree', 'privacy.choice.agree'),
      choice('decline', 'privacy.choice.decline'),
      ...(full ? [] : [choice('full', 'privacy.choice.full')]),
    ],
    note: note ? PICK_FROM_LIST : null,
    ...(full ? { params: { controller: notice.controller, contact: notice.contact } } : {}),
  });
  return full ? { ...prompt, paged: true } : prompt;
}

/**
 * Entries with a shorter label on USSD (`menu.ussd.*`): in Bemba and Nyanja "Inshuwalansi ya"
 * before each product pushed My data and Language off the first 182-character page once a
 * renewal or the reminders switch joined the menu. Chats show the full labels.
 */
const COMPACT_ON_USSD: ReadonlySet<string> = new Set(['motor', 'travel', 'renewList']);

/** The label key of a menu entry: its compact one on USSD when it has one. */
const entryLabel = (id: string, ussd: boolean): string =>
  ussd && COMPACT_ON_USSD.has(id) ? `menu.ussd.${id}` : `menu.choice.${id}`;

/**
 * The menu's one renewal entry, first: the reason most holders dial after a reminder. One entry
 * whatever the number due, so that with "Talk to a person" every item still fits the first
 * 182-character USSD page in every language; several due are listed behind it.
 */
function renewalEntry(offers: readonly RenewalOffer[], ussd: boolean): Choice[] {
  const [only] = offers;
  if (!only) return [];
  if (offers.length === 1) {
    return [
      choice(`${RENEW_CHOICE_PREFIX}${only.policyId}`, 'menu.choice.renew', {
        policyNumber: only.policyNumber,
      }),
    ];
  }
  return [choice(RENEW_LIST, entryLabel('renewList', ussd), { count: offers.length })];
}

/** The renewals due, soonest first, each with its end date. */
function renewalListPrompt(holder: HolderOffers, note: boolean): Prompt {
  return ask('menu.renewals', 'choice', {
    choices: holder.offers.map((offer) =>
      choice(`${RENEW_CHOICE_PREFIX}${offer.policyId}`, 'menu.choice.renewal', {
        policyNumber: offer.policyNumber,
        endDate: offer.endDate,
      }),
    ),
    note: note ? PICK_FROM_LIST : null,
  });
}

function menuPrompt(
  context: Pick<MainMenuContext, 'audience' | 'holder'> & { route?: TurnRoute | null },
  note: boolean,
  menu: MenuEntries = ENTRIES,
): Prompt {
  const { audience, holder } = context;
  const policyholder = audience === 'policyholder';
  const ussd = (context.route?.channel ?? 'ussd') === 'ussd';
  const renewals = policyholder ? renewalEntry(holder.offers, ussd) : [];
  const entries = menu[audience].map(([id]) => choice(id, entryLabel(id, ussd)));
  // Customers may always ask for a person; the channel takes that choice, not this flow.
  const person = policyholder ? [choice(TALK_TO_A_PERSON, 'menu.choice.person')] : [];
  // One USSD page holds the renewal entry or this switch, not both: while a renewal is offered
  // there, the reminder itself says how to stop (STOP by SMS) and START turns them back on. A
  // chat's buttons have room for both.
  const roomForSwitch = renewals.length === 0 || !ussd;
  const stop =
    policyholder && roomForSwitch && holder.remindersOn
      ? [choice(REMINDERS_OFF, 'menu.choice.remindersOff')]
      : policyholder && roomForSwitch && holder.remindersOff
        ? [choice(REMINDERS_ON, 'menu.choice.remindersOn')]
        : [];
  const myData = policyholder ? [choice(MY_DATA, 'menu.choice.myData')] : [];
  // Every customer may change their language; the channel takes that choice too.
  const language = audience === 'staff' ? [] : [choice(CHOOSE_LANGUAGE, 'menu.choice.language')];
  return ask(`menu.${audience}`, 'choice', {
    choices: [...renewals, ...entries, ...person, ...stop, ...myData, ...language],
    note: note ? PICK_FROM_LIST : null,
  });
}

function picked(audience: Audience, event: Reply, menu: MenuEntries): string | undefined {
  if (event.type !== 'user.choice') return undefined;
  return menu[audience].find(([id]) => id === event.id)?.[1];
}

/** The entry picked (held while the notice is asked), or what was held when none was. */
function pickedEntry(context: MainMenuContext, event: Reply, menu: MenuEntries) {
  assertEvent(event, 'user.choice');
  const next = picked(context.audience, event, menu);
  return next ? { next } : context.picked;
}

/** The renewal offered under the picked choice, if the choice was one. */
function pickedRenewal(context: MainMenuContext, event: Reply): RenewalOffer | undefined {
  if (event.type !== 'user.choice' || !event.id.startsWith(RENEW_CHOICE_PREFIX)) return undefined;
  const policyId = event.id.slice(RENEW_CHOICE_PREFIX.length);
  return context.holder.offers.find((offer) => offer.policyId === policyId);
}

const NO_OFFERS: HolderOffers = { offers: [], remindersOn: false };

/** Action references: the menu shown afresh, or with the "pick from the list" note. */
const SHOW_MENU = { type: 'showMenu', params: { note: false } } as const;
const SHOW_MENU_NOTED = { type: 'showMenu', params: { note: true } } as const;

/** Guard reference: the menu is for this audience. */
const audienceIs = (audience: Audience) => ({ type: 'audienceIs', params: { audience } }) as const;

/** Absolute ids of the states, for transitions that leave their stage. */
const ID = {
  menu: '#main-menu.menu',
  handOver: '#main-menu.handOver',
  declined: '#main-menu.declined',
  cancelled: '#main-menu.cancelled',
  remindersOff: '#main-menu.remindersOff',
  remindersOn: '#main-menu.remindersOn',
  stoppingReminders: '#main-menu.reminders.stoppingReminders',
  startingReminders: '#main-menu.reminders.startingReminders',
  checkingConsent: '#main-menu.consent.checkingConsent',
} as const;

/**
 * The state that turns this conversation's renewal reminders off or on with `src`, then says so
 * (`done`); when that fails, the menu again with a note that nothing changed.
 */
const changingReminders = (src: 'stopReminders' | 'startReminders', done: string) =>
  ({
    invoke: {
      src,
      input: ({ context }: { context: MainMenuContext }) => ({ route: context.route }),
      onDone: done,
      // The switch failed: the menu again, saying so.
      onError: {
        target: ID.menu,
        actions: [
          SHOW_MENU,
          { type: 'noteMenu', params: { key: 'menu.note.remindersNotChanged' } },
        ],
      },
    },
  }) as const;

/** The entry menu: lists what the audience can do and hands over to the flow picked. */
export const mainMenuMachine = setup({
  types: {
    context: {} as MainMenuContext,
    events: {} as Reply,
    input: {} as FlowInput<MainMenuStart>,
    output: {} as FlowOutput,
  },
  actors: {
    // Provided by createFlowRegistry (main-menu-actors.ts); these stand in for tests without deps.
    holderOffers: fromPromise<HolderOffers, { route: TurnRoute | null }>(async () => NO_OFFERS),
    stopReminders: fromPromise<void, { route: TurnRoute | null }>(async () => undefined),
    startReminders: fromPromise<void, { route: TurnRoute | null }>(async () => undefined),
    consented: fromPromise<ConsentCheck, { route: TurnRoute | null }>(async () => ({
      agreed: true,
      notice: SANDBOX_PRIVACY_NOTICE,
    })),
    agree: fromPromise<void, { route: TurnRoute | null }>(async () => undefined),
    decline: fromPromise<void, { route: TurnRoute | null }>(async () => undefined),
  },
  actions: {
    // Showing and picking entries: mainMenuWith provides these again over more entries.
    showMenu: assign({
      prompt: ({ context }, params: { note: boolean }) => menuPrompt(context, params.note),
    }),
    pickEntry: assign({ picked: ({ context, event }) => pickedEntry(context, event, ENTRIES) }),
    /** A note under the menu just shown (the switch failed, consent was not recorded). */
    noteMenu: assign({
      prompt: ({ context }, params: { key: string }) => ({
        ...context.prompt,
        notes: [{ key: params.key }],
      }),
    }),
    startRenewal: assign({
      picked: ({ context, event }) => {
        const offer = pickedRenewal(context, event);
        return offer
          ? {
              next: 'motor-quote' as const,
              start: { renewal: { policyId: offer.policyId, policyNumber: offer.policyNumber } },
            }
          : context.picked;
      },
    }),
    // The pick becomes the answer once the notice is agreed (or was already).
    confirmPick: assign({ answers: ({ context }) => context.picked }),
  },
  guards: {
    ...replyGuards,
    audienceIs: ({ context }, params: { audience: Audience }) =>
      context.audience === params.audience,
    isEntry: ({ context, event }) => picked(context.audience, event, ENTRIES) !== undefined,
    isRenewal: ({ context, event }) => pickedRenewal(context, event) !== undefined,
    remindersOn: ({ context }) => context.holder.remindersOn,
    remindersOff: ({ context }) => context.holder.remindersOff === true,
  },
}).createMachine({
  id: 'main-menu',
  context: ({ input }) => ({
    audience: input.audience,
    tries: 0,
    route: input.route ?? null,
    holder: NO_OFFERS,
    answers: {},
    picked: {},
    startPick: input.start?.pick ?? null,
    prompt: menuPrompt({ audience: input.audience, holder: NO_OFFERS }, false),
  }),
  initial: 'opening',
  states: {
    opening: {
      always: [
        { guard: audienceIs('policyholder'), target: 'loadingOffers' },
        { target: 'menu', actions: SHOW_MENU },
      ],
    },
    loadingOffers: {
      invoke: {
        src: 'holderOffers',
        input: ({ context }) => ({ route: context.route }),
        onDone: {
          target: 'menu',
          actions: [assign({ holder: ({ event }) => event.output }), SHOW_MENU],
        },
        // The menu never waits on reminders: without them it is the plain list.
        onError: { target: 'menu', actions: SHOW_MENU },
      },
    },
    // Turning renewal reminders off or on from the menu.
    reminders: {
      initial: 'stoppingReminders',
      states: {
        stoppingReminders: changingReminders('stopReminders', ID.remindersOff),
        startingReminders: changingReminders('startReminders', ID.remindersOn),
      },
    },
    remindersOff: { type: 'final', entry: assign({ prompt: end('menu.remindersOff') }) },
    remindersOn: { type: 'final', entry: assign({ prompt: end('menu.remindersOn') }) },
    // Every flow a menu entry opens asks for personal data: the notice comes first, once per
    // notice version (My data, which only shows and erases, needs none).
    consent: {
      initial: 'checkingConsent',
      states: {
        checkingConsent: {
          invoke: {
            src: 'consented',
            input: ({ context }) => ({ route: context.route }),
            onDone: [
              {
                guard: ({ event }) => event.output.agreed,
                target: ID.handOver,
                actions: 'confirmPick',
              },
              {
                target: 'notice',
                actions: assign({
                  prompt: noticePrompt(false, false),
                  notice: ({ event }) => event.output.notice,
                }),
              },
            ],
            onError: { target: 'notice', actions: assign({ prompt: noticePrompt(false, false) }) },
          },
        },
        notice: {
          tags: 'awaitingInput',
          on: {
            'user.choice': [
              { guard: chose('agree'), target: 'agreeing' },
              { guard: chose('decline'), target: 'declining' },
              {
                guard: chose('full'),
                actions: assign({
                  prompt: ({ context }) => noticePrompt(true, false, context.notice),
                }),
              },
              {
                actions: assign({
                  prompt: ({ context }) =>
                    noticePrompt(context.prompt.key === 'privacy.noticeFull', true, context.notice),
                }),
              },
            ],
            'user.text': {
              actions: assign({
                prompt: ({ context }) =>
                  noticePrompt(context.prompt.key === 'privacy.noticeFull', true, context.notice),
              }),
            },
            'user.back': {
              target: ID.menu,
              actions: SHOW_MENU,
            },
            'user.cancel': ID.cancelled,
          },
        },
        // The refusal is recorded (no personal data) and what waited for consent dropped; the
        // closing screen shows whether or not that worked.
        declining: {
          invoke: {
            src: 'decline',
            input: ({ context }) => ({ route: context.route }),
            onDone: ID.declined,
            onError: ID.declined,
          },
        },
        agreeing: {
          invoke: {
            src: 'agree',
            input: ({ context }) => ({ route: context.route }),
            onDone: { target: ID.handOver, actions: 'confirmPick' },
            // Unrecorded consent is no consent: the menu again, saying so.
            onError: {
              target: ID.menu,
              actions: [
                SHOW_MENU,
                { type: 'noteMenu', params: { key: 'privacy.note.notRecorded' } },
              ],
            },
          },
        },
      },
    },
    // Declined: nothing was asked, so nothing is kept; the session ends with this screen.
    declined: { type: 'final', entry: assign({ prompt: DECLINED }) },
    menu: {
      tags: 'awaitingInput',
      // Opened with an entry picked (its start's `pick`): taken as if tapped here, in the same turn.
      always: {
        guard: ({ context }) => Boolean(context.startPick),
        actions: [
          raise(({ context }) => ({ type: 'user.choice', id: context.startPick ?? '' })),
          assign({ startPick: null }),
        ],
      },
      on: {
        'user.choice': [
          { guard: 'isRenewal', target: ID.checkingConsent, actions: 'startRenewal' },
          {
            guard: chose(RENEW_LIST),
            target: 'renewals',
            actions: assign({ prompt: ({ context }) => renewalListPrompt(context.holder, false) }),
          },
          { guard: and(['remindersOn', chose(REMINDERS_OFF)]), target: ID.stoppingReminders },
          { guard: and(['remindersOff', chose(REMINDERS_ON)]), target: ID.startingReminders },
          {
            guard: and([audienceIs('policyholder'), chose(MY_DATA)]),
            target: 'handOver',
            actions: assign({ answers: { next: 'my-data' as const } }),
          },
          // Staff are not customers giving their data: their look-ups are audited instead.
          {
            guard: and([audienceIs('staff'), 'isEntry']),
            target: 'handOver',
            actions: ['pickEntry', 'confirmPick'],
          },
          { guard: 'isEntry', target: ID.checkingConsent, actions: 'pickEntry' },
          {
            actions: SHOW_MENU_NOTED,
          },
        ],
        'user.text': [
          {
            actions: SHOW_MENU_NOTED,
          },
        ],
        // The menu is the first screen: Back shows it again.
        'user.back': {
          actions: SHOW_MENU,
        },
        'user.cancel': 'cancelled',
      },
    },
    renewals: {
      tags: 'awaitingInput',
      on: {
        'user.choice': [
          { guard: 'isRenewal', target: ID.checkingConsent, actions: 'startRenewal' },
          {
            actions: assign({ prompt: ({ context }) => renewalListPrompt(context.holder, true) }),
          },
        ],
        'user.text': {
          actions: assign({ prompt: ({ context }) => renewalListPrompt(context.holder, true) }),
        },
        'user.back': {
          target: 'menu',
          actions: SHOW_MENU,
        },
        'user.cancel': 'cancelled',
      },
    },
    handOver: { type: 'final' },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
  },
  output: ({ context }): FlowOutput =>
    context.answers.next
      ? {
          next: context.answers.next,
          ...(context.answers.start ? { start: context.answers.start } : {}),
        }
      : context.prompt.key === DECLINED.key
        ? { prompt: context.prompt, forget: true }
        : { prompt: context.prompt },
});

/**
 * The entry menu with `more` entries after its own (flows registered with a menu entry, see
 * createFlowRegistry): the same machine, its menu implementations provided over both.
 */
export function mainMenuWith(more: MenuEntries): typeof mainMenuMachine {
  const menu: MenuEntries = {
    policyholder: [...ENTRIES.policyholder, ...more.policyholder],
    'funeral-member': [...ENTRIES['funeral-member'], ...more['funeral-member']],
    staff: [...ENTRIES.staff, ...more.staff],
  };
  return mainMenuMachine.provide({
    actions: {
      showMenu: assign({
        prompt: ({ context }, params: { note: boolean }) => menuPrompt(context, params.note, menu),
      }),
      pickEntry: assign({ picked: ({ context, event }) => pickedEntry(context, event, menu) }),
    },
    guards: {
      isEntry: ({ context, event }) => picked(context.audience, event, menu) !== undefined,
    },
  });
}

/**
 * The entry menu as the engine registers it. Version 5: reminders and consent became compound
 * states, so a snapshot of version 4 restarts the menu with the engine's notice.
 */
export const mainMenuFlow: FlowDefinition<typeof mainMenuMachine> = {
  id: 'main-menu',
  version: 5,
  machine: mainMenuMachine,
  start: MainMenuStart,
};
