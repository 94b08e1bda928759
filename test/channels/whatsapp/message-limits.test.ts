import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  PAGE_PREFIX,
  toWhatsAppMessages,
  WHATSAPP_LIMITS,
  type WhatsAppMessage,
} from '../../../src/channels/whatsapp/index.js';
import type { FlowStartInput } from '../../../src/conversation/flow.js';
import {
  ENGINE_PROMPTS,
  LANGUAGE_PROMPT,
  LOCALE_NAMES,
  type Prompt,
  type Reply,
  renderPrompt,
} from '../../../src/conversation/index.js';
import {
  actorNames,
  FLOW_IDS,
  inputFor,
  otherInputsFor,
  pushedReplies,
  salient,
  TEXTS,
  variantsOf,
  worldMachine,
} from '../../flows/fixtures.js';
import { apiErrors, DEFAULT_SAMPLES, type FlowSnapshot, walk } from '../../flows/harness.js';

// CPU-bound walks of every flow: two test files share two cores, so each gets room beyond
// the suite's 30 s (a ceiling against a hang, not a measure of speed).
vi.setConfig({ testTimeout: 120_000 });

/*
 * Every message WhatsApp would be sent for any screen the flows can show, in every language,
 * keeps WhatsApp's limits: reply buttons at most 3 with titles of 20, list rows at most 10 with
 * titles of 24 and descriptions of 72 (longer lists paged), bodies of 1024 for interactive
 * messages and 4096 for text. Screens come from the flows' state walk and from random replies.
 */

const LOCALES = Object.keys(LOCALE_NAMES);
const length = (text: string) => [...text].length;

/** The first limit one message breaks, if any. */
function broken(message: WhatsAppMessage): string | null {
  const L = WHATSAPP_LIMITS;
  if (message.type === 'text') {
    const body = message.text.body;
    return length(body) > L.textBody || body.trim() === '' ? `text of ${length(body)}` : null;
  }
  if (message.type === 'document') {
    const { caption, filename } = message.document;
    return length(caption) > L.caption || filename === '' ? `document ${filename}` : null;
  }
  const interactive = message.interactive;
  const body = interactive.body.text;
  if (length(body) > L.interactiveBody || body.trim() === '') return `body of ${length(body)}`;
  if (interactive.type === 'cta_url') {
    const shown = interactive.action.parameters.display_text;
    return length(shown) > L.ctaDisplayText ? `URL button "${shown}"` : null;
  }
  if (interactive.type === 'button') {
    const buttons = interactive.action.buttons;
    if (buttons.length > L.buttons) return `${buttons.length} buttons`;
    const long = buttons.find((b) => length(b.reply.title) > L.buttonTitle || !b.reply.title);
    return long ? `button "${long.reply.title}"` : null;
  }
  if (length(interactive.action.button) > L.listButton) return 'list button';
  const rows = interactive.action.sections.flatMap((section) => section.rows);
  if (rows.length > L.listRows) return `${rows.length} rows`;
  const bad = rows.find(
    (row) =>
      !row.title ||
      length(row.title) > L.rowTitle ||
      length(row.description ?? '') > L.rowDescription ||
      // Issue 40: a title is never cut short with an ellipsis (a short title is written instead),
      // and the description holds the whole label.
      row.title.endsWith('…') ||
      (row.description ?? '').endsWith('…'),
  );
  if (bad) return `row "${bad.title}" / "${bad.description}"`;
  const titles = rows.map((row) => row.title);
  const twice = titles.find((title, index) => titles.indexOf(title) !== index);
  return twice === undefined ? null : `two rows titled "${twice}"`;
}

/** The choice ids a screen's messages offer (the page row aside). */
function offered(messages: readonly WhatsAppMessage[]): string[] {
  return messages.flatMap((message) => {
    if (message.type !== 'interactive') return [];
    const { interactive } = message;
    if (interactive.type === 'button') return interactive.action.buttons.map((b) => b.reply.id);
    if (interactive.type === 'list') {
      return interactive.action.sections.flatMap((s) => s.rows.map((row) => row.id));
    }
    return [];
  });
}

/** What is wrong with a screen on WhatsApp in any language, on any page; null when nothing. */
function limitProblem(prompt: Prompt): string | null {
  for (const locale of LOCALES) {
    const pages = Math.max(1, Math.ceil((prompt.choices?.length ?? 0) / 9));
    const reached = new Set<string>();
    for (let page = 0; page < pages; page += 1) {
      const messages = toWhatsAppMessages(prompt, renderPrompt, locale, {
        page,
        before: ['I do not need a photo or file at this step.'],
      });
      for (const message of messages) {
        const problem = broken(message);
        if (problem) return `${prompt.key} in ${locale}, page ${page}: ${problem}`;
      }
      for (const id of offered(messages)) if (!id.startsWith(PAGE_PREFIX)) reached.add(id);
    }
    const lost = (prompt.choices ?? []).find((choice) => !reached.has(choice.id));
    if (lost) return `${prompt.key} in ${locale}: choice ${lost.id} on no page`;
  }
  return null;
}

/**
 * {@link limitProblem} once per distinct screen: the walks and random replies below show the same
 * screens many times over, and the answer depends on the Prompt alone.
 */
const limitProblems = new Map<string, string | null>();

function screenLimitProblem(prompt: Prompt): string | null {
  const key = JSON.stringify(prompt);
  let problem = limitProblems.get(key);
  if (problem === undefined) {
    problem = limitProblem(prompt);
    limitProblems.set(key, problem);
  }
  return problem;
}

function visiblePrompt(snapshot: FlowSnapshot): Prompt | undefined {
  if (snapshot.status !== 'done') return snapshot.context.prompt as Prompt;
  return (snapshot.output as { prompt?: Prompt } | undefined)?.prompt;
}

/** A WhatsApp customer: verified by the sender's number, no USSD caller. */
const whatsappInput = (flow: (typeof FLOW_IDS)[number]): FlowStartInput => {
  const { callerPhone: _none, ...rest } = inputFor(flow);
  return rest;
};

it('catches what breaks a limit, and pages a long list 9 rows and More at a time', () => {
  const reply = (i: number) => ({ type: 'reply' as const, reply: { id: `c${i}`, title: 'Yes' } });
  const action = { buttons: [0, 1, 2, 3].map(reply) };
  const four: WhatsAppMessage = {
    type: 'interactive',
    interactive: { type: 'button', body: { text: 'Pick' }, action },
  };
  expect(broken(four)).toBe('4 buttons');
  const choices = Array.from({ length: 23 }, (_, i) => ({
    id: `c${i}`,
    label: `Choice ${i}`,
    literal: true,
  }));
  const prompt: Prompt = { key: 'menu.renewals', input: 'choice', final: false, choices };
  const rows = (page: number) => offered(toWhatsAppMessages(prompt, renderPrompt, 'en', { page }));
  expect(rows(0)).toEqual([...choices.slice(0, 9).map((c) => c.id), `${PAGE_PREFIX}1`]);
  expect(rows(2)).toEqual([...choices.slice(18).map((c) => c.id), `${PAGE_PREFIX}0`]);
  // Insurer data too long for a row title is cut at a word, without an ellipsis, and given
  // whole as the description.
  const long = { id: 'l', label: 'Motor Third Party, Fire and Theft', literal: true };
  const list = toWhatsAppMessages(
    { ...prompt, choices: [long, ...choices.slice(0, 3)] },
    renderPrompt,
    'en',
  );
  expect(JSON.stringify(list)).toContain(
    '"title":"Motor Third Party, Fire","description":"Motor Third Party, Fire and Theft"',
  );
});

it('titles a record row by its number, a long choice by its short title, each in its language', () => {
  const records: Prompt = {
    key: 'cover.list',
    input: 'choice',
    final: false,
    choices: [
      {
        id: 'a',
        label: 'cover.line.groupLife',
        params: { number: 'GL-DEMO-000001', status: 'in force' },
      },
      {
        id: 'b',
        label: 'cover.line.creditLife',
        params: { number: 'KL-DEMO-GRACE', status: 'in force' },
      },
      { id: 'c', label: 'motor.choice.newHolder' },
      { id: 'd', label: 'claim.choice.held' },
    ],
  };
  const rowsIn = (locale: string) =>
    toWhatsAppMessages(records, renderPrompt, locale).flatMap((message) =>
      message.type === 'interactive' && message.interactive.type === 'list'
        ? message.interactive.action.sections.flatMap((section) => section.rows)
        : [],
    );
  expect(rowsIn('en')).toEqual([
    { id: 'a', title: 'GL-DEMO-000001', description: 'Group life GL-DEMO-000001 in force' },
    { id: 'b', title: 'KL-DEMO-GRACE', description: 'Loan KL-DEMO-GRACE in force' },
    {
      id: 'c',
      title: 'Go on as a new holder',
      description: 'Go on as a new holder for this policy only',
    },
    { id: 'd', title: 'Claim on my cover' },
  ]);
  expect(rowsIn('ny').slice(2)).toEqual([
    {
      id: 'c',
      title: 'Ngati mwini watsopano',
      description: 'Pitirizani ngati mwini watsopano wa polisi iyi yokha',
    },
    { id: 'd', title: 'Pa inshuwalansi yanga', description: 'Claim pa inshuwalansi yanga' },
  ]);
  expect(limitProblem(records)).toBeNull();
});

it('never shows two rows of one list with the same title', () => {
  const twins: Prompt = {
    key: 'motor.pickProduct',
    input: 'choice',
    final: false,
    choices: ['A', 'B', 'C', 'D'].map((letter) => ({
      id: letter,
      label: `Funeral Plan Gold Family Cover ${letter}`,
      literal: true,
    })),
  };
  expect(limitProblem(twins)).toBeNull();
  const [list] = toWhatsAppMessages(twins, renderPrompt, 'en');
  expect(JSON.stringify(list)).toContain(
    '"title":"2. Funeral Plan Gold","description":"Funeral Plan Gold Family Cover B"',
  );
});

it('keeps the channel-made screens within the limits (language, errors, a long list)', () => {
  const many: Prompt = {
    key: 'menu.renewals',
    input: 'choice',
    final: false,
    choices: Array.from({ length: 23 }, (_, i) => ({
      id: `p${i}`,
      label: `Motor cover MTR-2026-${String(i).padStart(6, '0')} for a very long vehicle description`,
      literal: true,
    })),
  };
  for (const prompt of [LANGUAGE_PROMPT, many]) expect(limitProblem(prompt)).toBeNull();
  for (const key of Object.values(ENGINE_PROMPTS)) {
    expect(limitProblem({ key, input: 'none', final: true })).toBeNull();
  }
});

describe.each(FLOW_IDS)('the %s flow on WhatsApp', (flow) => {
  it('keeps every screen of the state walk within the limits, in every language', () => {
    const inputs = [
      inputFor(flow),
      whatsappInput(flow),
      ...otherInputsFor(flow).map((o) => o.input),
    ];
    const machines = [
      worldMachine(flow),
      ...variantsOf(flow).map((variant) => worldMachine(flow, { variant })),
      worldMachine(flow, { failing: actorNames(flow), error: apiErrors.serverError }),
    ];
    let screens = 0;
    for (const machine of machines) {
      for (const input of inputs) {
        const paths = walk(machine, input, {
          texts: TEXTS,
          extra: pushedReplies,
          serialize: salient(flow),
        });
        for (const path of paths) {
          const prompt = visiblePrompt(path.state);
          if (!prompt) continue;
          screens += 1;
          expect(screenLimitProblem(prompt)).toBeNull();
        }
      }
    }
    expect(screens).toBeGreaterThan(0);
  });

  it('keeps every screen of random replies within the limits', () => {
    const machines = [
      worldMachine(flow),
      ...variantsOf(flow).map((v) => worldMachine(flow, { variant: v })),
    ];
    const move = fc.record({
      pick: fc.nat(12),
      kind: fc.nat(9),
      random: fc.string({ maxLength: 30 }),
    });
    fc.assert(
      fc.property(
        fc.nat(machines.length - 1),
        fc.array(move, { maxLength: 25 }),
        (world, moves) => {
          const machine = machines[world];
          if (!machine) return;
          const actor = createActor(machine, { input: whatsappInput(flow) });
          actor.start();
          for (const m of moves) {
            const snapshot = actor.getSnapshot();
            if (snapshot.status !== 'active') break;
            const prompt = snapshot.context.prompt as Prompt;
            const samples = TEXTS[prompt.key] ?? DEFAULT_SAMPLES[prompt.input] ?? [];
            const choices = prompt.choices ?? [];
            const replies: Reply[] = [
              { type: 'user.choice', id: choices[m.pick % Math.max(1, choices.length)]?.id ?? 'x' },
              {
                type: 'user.text',
                text: samples[m.pick % Math.max(1, samples.length)] ?? m.random,
              },
              { type: 'user.photo', url: 'https://files.test/f/1?sig=x' },
              { type: 'user.contact', phone: '+260971234567' },
              { type: 'user.back' },
            ];
            actor.send(replies[m.kind % replies.length] as Reply);
            const after = visiblePrompt(actor.getSnapshot() as unknown as FlowSnapshot);
            if (after) expect(screenLimitProblem(after)).toBeNull();
          }
          actor.stop();
        },
      ),
      { numRuns: 300 },
    );
  });
});
