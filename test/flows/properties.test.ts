import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type AnyStateMachine, createActor } from 'xstate';
import { ApiError } from '../../src/api/index.js';
import { GSM7_TEXT, toUssdScreens, USSD_MAX_CHARS } from '../../src/channels/ussd/index.js';
import type { FlowStartInput } from '../../src/conversation/flow.js';
import {
  type Catalogue,
  isStaffKey,
  LOCALE_NAMES,
  LOCALES,
  renderPrompt,
} from '../../src/conversation/index.js';
import { en, type MessageKey } from '../../src/conversation/locales/en.js';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import { FLOW_IDS, inputFor, TEXTS, variantsOf, worldMachine } from './fixtures.js';
import { apiErrors, DEFAULT_SAMPLES } from './harness.js';

// CPU-bound walks of every flow: two test files share two cores, so each gets room beyond
// the suite's 30 s (a ceiling against a hang, not a measure of speed).
vi.setConfig({ testTimeout: 120_000 });

/** An abstract user move, made concrete against whatever screen is showing. */
type Move =
  | { kind: 'choice'; index: number }
  | { kind: 'badChoice' }
  | { kind: 'text'; index: number; random: string }
  | { kind: 'back' }
  | { kind: 'cancel' }
  | { kind: 'photo' }
  | { kind: 'contact' }
  | { kind: 'settled'; outcome: 'paid' | 'failed' | 'pending'; ours: boolean }
  // The pay request's go-ahead once a handset's call ended (issue 38), or a stale one.
  | { kind: 'proceed'; ours: boolean };

const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('choice' as const), index: fc.nat(8) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'badChoice' as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      index: fc.nat(10),
      random: fc.string({ maxLength: 30 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'back' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'photo' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'contact' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('settled' as const),
      outcome: fc.constantFrom('paid' as const, 'failed' as const, 'pending' as const),
      ours: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('proceed' as const), ours: fc.boolean() }),
  },
);

function concrete(m: Move, prompt: Prompt, context: Record<string, unknown>): Reply {
  switch (m.kind) {
    case 'choice': {
      const choices = prompt.choices ?? [];
      const picked = choices[m.index % Math.max(choices.length, 1)];
      return { type: 'user.choice', id: picked?.id ?? 'none' };
    }
    case 'badChoice':
      return { type: 'user.choice', id: 'no-such-choice' };
    case 'text': {
      const samples = TEXTS[prompt.key] ?? DEFAULT_SAMPLES[prompt.input] ?? [];
      const text = m.index < samples.length ? (samples[m.index] ?? '') : m.random;
      return { type: 'user.text', text };
    }
    case 'back':
      return { type: 'user.back' };
    case 'cancel':
      return { type: 'user.cancel' };
    case 'photo':
      return { type: 'user.photo', url: 'https://files.test/f/2?sig=y' };
    case 'contact':
      return { type: 'user.contact', phone: '+260 97 765 4321' };
    case 'proceed':
      // The fixtures' payLater names every go-ahead `go-1`.
      return { type: 'payment.proceed', id: m.ours ? 'go-1' : 'go-other' };
    case 'settled': {
      const payment = (context.payment ?? context.policy) as { reference?: string } | null;
      const reference = m.ours ? (payment?.reference ?? 'X') : 'OTHER';
      return { type: 'payment.settled', reference, outcome: m.outcome };
    }
  }
}

const hasKey = (key: string) => Object.hasOwn(en, key);

function visiblePrompt(snapshot: {
  status: string;
  output?: unknown;
  context: { prompt: Prompt };
}) {
  if (snapshot.status !== 'done') return snapshot.context.prompt;
  return (snapshot.output as { prompt?: Prompt }).prompt;
}

/**
 * What must never reach a user: a field path, a missing value, an object printed as text, a date
 * as the insurer writes it (users read 18/11/2026).
 */
const LEAKS = [/\w+\.\d+\.\w+/, /\bundefined\b/, /\bnull\b/, /\[object/, /\d{4}-\d{2}-\d{2}/];

/** The first leak in what a screen shows (text, notes and choice labels), if any. */
function leakIn(prompt: Prompt): string | null {
  const shown = renderPrompt(prompt);
  const all = [shown.text, ...shown.choices.map((c) => c.label)].join('\n');
  const leak = LEAKS.find((pattern) => pattern.test(all));
  return leak ? `${prompt.key} shows ${leak}: ${JSON.stringify(all)}` : null;
}

/**
 * Where a screen with choices leaves them on USSD, if not on the first page: all of them when
 * they fit there, else (a list longer than a page) at least the first. A text read whole before
 * choosing (`paged`, the full privacy notice) has them after it, on its last page, and so has a
 * text whose shortening would cut a policy number or an amount (issue 38): every number of three
 * digits or more and every choice is then on one of its pages.
 */
function choicesOffPageOne(prompt: Prompt): string | null {
  const shown = renderPrompt(prompt);
  if (shown.choices.length === 0 || prompt.paged) return null;
  const numbered = shown.choices.map((choice, index) => `${index + 1}. ${choice.label}`);
  const screens = toUssdScreens(shown, 'en');
  const [first] = screens;
  const expected =
    numbered.join('\n').length + 41 <= USSD_MAX_CHARS ? numbered : numbered.slice(0, 1);
  const numbers = (shown.text.match(/\d(?:[\d,./-]*\d)?/g) ?? []).filter(
    (number) => number.replace(/\D/g, '').length >= 3,
  );
  const all = screens.join(' ').replace(/\s+/g, ' ');
  const pagedWhole =
    numbers.length > 0 &&
    numbers.every((number) => all.includes(number)) &&
    numbered.every((line) => screens.some((screen) => screen.includes(line)));
  return expected.every((line) => first?.includes(line)) || pagedWhole
    ? null
    : `${prompt.key} puts its choices past the first USSD page: ${JSON.stringify(first)}`;
}

/** Every language a customer may choose, English included. */
const CUSTOMER_LOCALES = Object.keys(LOCALE_NAMES);

/** The catalogue keys a screen shows: its message, its notes, its translated choice labels. */
function keysOf(prompt: Prompt): string[] {
  return [
    prompt.key,
    ...(prompt.notes ?? []).map((note) => note.key),
    ...(prompt.choices ?? []).filter((choice) => !choice.literal).map((choice) => choice.label),
  ];
}

/**
 * What is wrong with a customer's screen in one of their languages, if anything: a USSD page
 * over 182 characters or outside the GSM 7-bit alphabet, choices other than English's (count and
 * ids), a key the catalogue lacks, or English left where the catalogue has its own words.
 */
function localeProblem(prompt: Prompt, locale: string): string | null {
  const keys = keysOf(prompt);
  if (keys.some(isStaffKey)) return null; // staff screens stay in English
  const catalogue: Catalogue = LOCALES[locale] ?? {};
  const missing = keys.find((key) => !Object.hasOwn(catalogue, key));
  if (missing) return `${locale} lacks ${missing}`;
  const shown = renderPrompt(prompt, locale);
  const ids = (choices: typeof shown.choices) => choices.map((choice) => choice.id).join(' ');
  const englishIds = ids(renderPrompt(prompt, 'en').choices);
  if (ids(shown.choices) !== englishIds)
    return `${prompt.key} in ${locale} offers ${ids(shown.choices)}, English ${englishIds}`;
  for (const screen of toUssdScreens(shown, locale)) {
    if (screen.length > USSD_MAX_CHARS || !GSM7_TEXT.test(screen))
      return `${prompt.key} in ${locale} does not fit a GSM 7-bit USSD page: ${JSON.stringify(screen)}`;
  }
  if (locale === 'en') return null;
  const english = renderPrompt(prompt, 'en');
  const words = (rendered: typeof shown) =>
    [rendered.text, ...rendered.choices.map((choice) => choice.label)].join('\n');
  const translated = keys.some((key) => catalogue[key as MessageKey] !== en[key as MessageKey]);
  if (translated && words(shown) === words(english))
    return `${prompt.key} in ${locale} is shown in English`;
  return null;
}

/** The first language whose screen is wrong, if any. */
function inEveryLocale(prompt: Prompt): string | null {
  for (const locale of CUSTOMER_LOCALES) {
    const problem = localeProblem(prompt, locale);
    if (problem) return problem;
  }
  return null;
}

/**
 * What is wrong with a screen as shown (a leak, choices off USSD page one, a language's page),
 * checked once per distinct screen: random replies show the same few hundred screens again and
 * again, and each check is a function of the Prompt alone (rendered in every language).
 */
const screenProblems = new Map<string, string | null>();

function screenProblem(prompt: Prompt): string | null {
  const key = JSON.stringify(prompt);
  let problem = screenProblems.get(key);
  if (problem === undefined) {
    problem = leakIn(prompt) ?? choicesOffPageOne(prompt) ?? inEveryLocale(prompt);
    screenProblems.set(key, problem);
  }
  return problem;
}

/** An insurer refusal naming a field by its path, as the sandbox's rules do. */
const pathRefusal = new ApiError({
  status: 422,
  operation: 'test',
  rawBody: JSON.stringify({
    status: 422,
    message: 'Rule broken',
    errors: { 'risks.0.vehicleId': ['The vehicle is registered to another client'] },
  }),
});

/** Runs one random conversation; returns a description of the first broken rule, if any. */
function converse(machine: AnyStateMachine, input: FlowStartInput, moves: Move[]): string | null {
  const actor = createActor(machine, { input });
  let failure: unknown;
  actor.subscribe({ error: (error) => (failure = error) });
  actor.start();
  for (const m of moves) {
    const before = actor.getSnapshot();
    if (before.status !== 'active') break;
    const answers = structuredClone(before.context.answers ?? {}) as Record<string, unknown>;
    // While the payment child runs, the payment (and its reference) is the child's.
    const child = (before.children as Record<string, { getSnapshot(): unknown } | undefined>)
      .payment;
    const childPay = (child?.getSnapshot() as { context?: { pay?: { reference?: string } } })
      ?.context?.pay;
    const context =
      before.context.payment || !childPay
        ? before.context
        : { ...before.context, payment: childPay };
    const reply = concrete(m, before.context.prompt, context);
    actor.send(reply);
    if (failure !== undefined) return `threw on ${JSON.stringify(reply)}: ${String(failure)}`;
    const after = actor.getSnapshot();
    const prompt = visiblePrompt(after);
    if (after.status === 'done' && !prompt) {
      if (!(after.output as { next?: string }).next) return 'ended without a prompt or hand-over';
      continue;
    }
    if (!prompt?.key || !hasKey(prompt.key)) return `prompt without a known key: ${prompt?.key}`;
    if (prompt.notes?.some((n) => !hasKey(n.key))) return 'note without a known key';
    if (after.status === 'active' && !after.hasTag('awaitingInput'))
      return 'settled without a screen';
    const leak = screenProblem(prompt);
    if (leak) return leak;
    if (after.status === 'active') {
      // Every screen still waiting offers a way on (a choice or something to type) or back.
      const forward =
        (prompt.choices?.length ?? 0) > 0 || (prompt.input !== 'choice' && prompt.input !== 'none');
      if (!forward && !after.can({ type: 'user.back' })) return `${prompt.key} is a dead end`;
    }
    const now = (after.context.answers ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(answers)) {
      if (!(key in now)) return `lost the answer ${key} on ${JSON.stringify(reply)}`;
    }
    // A rejected reply leaves the user on the same screen with a note saying why.
    const rejected =
      after.status === 'active' &&
      JSON.stringify(after.value) === JSON.stringify(before.value) &&
      (prompt.notes?.length ?? 0) > 0;
    if (rejected && JSON.stringify(now) !== JSON.stringify(answers)) {
      return `a rejected reply changed answers: ${JSON.stringify(reply)}`;
    }
  }
  actor.stop();
  return null;
}

const RUNS = 10_000;

describe.each(FLOW_IDS)('the %s flow, under random replies', (flow) => {
  it(`never throws, never strands the user, never shows a field path, a missing value or an ISO date, keeps choices on the first USSD page, fits every screen on GSM 7-bit USSD pages with English's choices in every language, and never loses an answer (${RUNS} runs)`, () => {
    const machines = [
      worldMachine(flow),
      ...variantsOf(flow).map((variant) => worldMachine(flow, { variant })),
      worldMachine(flow, {
        failing: ['findVehicle', 'quoteTravel', 'intimateClaim', 'lookupCover', 'getBatch'],
        error: apiErrors.timeout,
      }),
      worldMachine(flow, {
        failing: ['findVehicle', 'quoteTravel', 'intimateClaim', 'lookupCover', 'getBatch'],
        error: pathRefusal,
      }),
    ];
    const input = inputFor(flow);
    fc.assert(
      fc.property(
        fc.nat(machines.length - 1),
        fc.array(move, { maxLength: 30 }),
        (world, moves) => {
          const machine = machines[world];
          if (!machine) return;
          expect(converse(machine, input, moves)).toBeNull();
        },
      ),
      { numRuns: RUNS },
    );
  });
});
