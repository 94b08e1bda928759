import { toUssdScreens } from '../src/channels/ussd/index.js';
import { type Prompt, type RenderedPrompt, renderPrompt } from '../src/conversation/index.js';
import { renderPromptByHand } from './lib/hand-renderer.js';
import { cpuMicros, fmt, fmtRatio, fmtSpread, spread, verdict } from './lib/stats.js';

/** Options of the render-cost measurement. */
export interface RenderCostOptions {
  readonly pairs: number;
  /** Motor journeys rendered per run (one screen per turn). */
  readonly journeysPerRun: number;
  readonly log: (line: string) => void;
}

const ask = (key: string, params?: Prompt['params']): Prompt => ({
  key,
  input: 'text',
  final: false,
  ...(params ? { params } : {}),
});
const pick = (key: string, choices: Prompt['choices'], params?: Prompt['params']): Prompt => ({
  key,
  input: 'choice',
  final: false,
  choices,
  ...(params ? { params } : {}),
});
const labels = (...keys: string[]) => keys.map((key) => ({ id: key, label: key }));
const literal = (...names: string[]) =>
  names.map((label, index) => ({ id: `p${index}`, label, literal: true }));

/** The screens of a USSD motor purchase, one per turn, as the flow's Prompts carry them. */
const MOTOR_TURNS: readonly Prompt[] = [
  pick(
    'menu.policyholder',
    labels(
      'menu.choice.motor',
      'menu.choice.travel',
      'menu.choice.policies',
      'menu.choice.claim',
      'menu.choice.person',
      'menu.choice.remindersOff',
      'menu.choice.language',
    ),
  ),
  pick('motor.mode', labels('motor.choice.new', 'motor.choice.renew')),
  pick('motor.pickProduct', literal('Motor Private Third Party', 'Motor Private Comprehensive')),
  pick('motor.pickCategory', literal('Private', 'Commercial', 'Public service')),
  ask('motor.askSumInsured'),
  pick(
    'motor.pickDuration',
    ['3 months', '6 months', '12 months'].map((label, index) => ({
      id: `d${index}`,
      label: 'motor.durationOption',
      params: { label, currency: 'ZMW', gross: ['412.50', '790.00', '1,480.00'][index] ?? '' },
    })),
  ),
  ask('motor.askPlate'),
  ask('motor.askVehicle'),
  ask('motor.askChassis'),
  ask('motor.askEngine'),
  { key: 'motor.askHolderPhone', input: 'contact', final: false },
  ask('motor.askHolderNrc'),
  ask('motor.askName'),
  ask('motor.askEmail'),
  pick(
    'motor.confirmQuote',
    labels('pay.choice.ownNumber', 'pay.choice.otherNumber', 'pay.choice.card'),
    {
      product: 'Motor Private Third Party',
      plate: 'ABC 1234',
      startDate: '2026-11-28',
      endDate: '2027-02-27',
      label: '3 months',
      currency: 'ZMW',
      amount: '412.50',
      basic: '392.86',
      levy: '19.64',
    },
  ),
  {
    key: 'pay.waitPhone',
    input: 'choice',
    final: false,
    params: { currency: 'ZMW', amount: '412.50' },
    choices: labels('pay.choice.check'),
  },
  {
    key: 'motor.done',
    input: 'none',
    final: true,
    params: {
      currency: 'ZMW',
      amount: '412.50',
      what: 'Motor Private Third Party for BCE 7781',
      startDate: '2026-11-25',
      endDate: '2027-02-24',
      policyNumber: 'MTR-2026-000123',
    },
    notes: [{ key: 'reminder.notice' }],
  },
];

type Render = (prompt: Prompt, locale: string) => RenderedPrompt;

/** CPU µs per turn of rendering and laying out each screen of `journeys` motor purchases. */
function timeTurns(render: Render, locale: string, journeys: number): number {
  let sink = 0;
  const started = process.cpuUsage();
  for (let journey = 0; journey < journeys; journey += 1) {
    for (const prompt of MOTOR_TURNS) sink += toUssdScreens(render(prompt, locale), locale).length;
  }
  const micros = cpuMicros(started);
  if (sink === 0) throw new Error('nothing was rendered');
  return micros / (journeys * MOTOR_TURNS.length);
}

/**
 * The screen a USSD turn renders (its Prompt through the catalogue, then laid out in pages),
 * with the catalogue rendered by FormatJS `intl-messageformat` (compiled once per locale)
 * against the hand-written renderer it replaced, in English and in Nyanja.
 */
export async function runRenderCost(options: RenderCostOptions): Promise<string> {
  const rows: string[] = [];
  const ratios: number[] = [];
  for (const locale of ['en', 'ny']) {
    for (const prompt of MOTOR_TURNS) {
      // Both renderers say the same thing: the comparison is of cost only.
      const [library, byHand] = [renderPrompt(prompt, locale), renderPromptByHand(prompt, locale)];
      if (JSON.stringify(library) !== JSON.stringify(byHand))
        throw new Error(`the renderers differ on ${prompt.key} in ${locale}`);
    }
    // JIT warm-up.
    timeTurns(renderPrompt, locale, options.journeysPerRun);
    timeTurns(renderPromptByHand, locale, options.journeysPerRun);
    const libraryRuns: number[] = [];
    const handRuns: number[] = [];
    for (let pair = 0; pair < options.pairs; pair += 1) {
      if (pair % 2 === 0) {
        libraryRuns.push(timeTurns(renderPrompt, locale, options.journeysPerRun));
        handRuns.push(timeTurns(renderPromptByHand, locale, options.journeysPerRun));
      } else {
        handRuns.push(timeTurns(renderPromptByHand, locale, options.journeysPerRun));
        libraryRuns.push(timeTurns(renderPrompt, locale, options.journeysPerRun));
      }
      options.log(
        `  ${locale}: library ${fmt(libraryRuns[pair] ?? Number.NaN, 2)} µs/turn, by hand ${fmt(handRuns[pair] ?? Number.NaN, 2)} µs/turn`,
      );
    }
    const ratio = spread(libraryRuns.map((value, i) => value / (handRuns[i] ?? Number.NaN)));
    ratios.push(ratio.median);
    rows.push(
      `| ${locale} | ${fmtSpread(spread(libraryRuns), 2)} | ${fmtSpread(spread(handRuns), 2)} | ${fmtRatio(ratio)} |`,
    );
  }
  return [
    '## 9. Rendering a turn’s screen: ICU library against the hand-written renderer',
    '',
    `CPU per turn of the screen a USSD turn shows (its Prompt through the locale catalogue, then`,
    `laid out in pages), over the ${MOTOR_TURNS.length} screens of a motor purchase,`,
    `${options.journeysPerRun} purchases per run: catalogues rendered by FormatJS`,
    '`intl-messageformat` (each template compiled once per locale) against the hand-written',
    'renderer it replaced (`bench/lib/hand-renderer.ts`). Both render identical text (checked).',
    'Runs alternate; ratios pair by pair.',
    '',
    '| locale | library CPU µs/turn | hand-written CPU µs/turn | library ÷ hand-written |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    `Target library ≤ hand-written (ratio ≤ 1.00 in every locale): ${verdict(ratios.every((ratio) => ratio <= 1))}`,
    '',
  ].join('\n');
}
