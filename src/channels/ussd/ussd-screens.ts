import { type RenderedPrompt, t } from '../../conversation/index.js';
import { USSD_MAX_CHARS } from './gateway/ussd-wire.js';

/** What the caller types to see the next screen of a paged Prompt. */
export const USSD_MORE_KEY = '98';
/** What the caller types to see the previous screen (on the first screen, the flow's "back"). */
export const USSD_BACK_KEY = '0';

/** Splits one over-long line at spaces into pieces of at most `width` characters. */
function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const pieces: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    let rest = word;
    // A word longer than a whole screen (a URL) is cut where it must be.
    while (rest.length > width) {
      if (current) {
        pieces.push(current);
        current = '';
      }
      pieces.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    const candidate = current ? `${current} ${rest}` : rest;
    if (candidate.length <= width) {
      current = candidate;
    } else {
      pieces.push(current);
      current = rest;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * Cut at the end of a shortened text: three dots rather than `…`, which is not in the GSM 7-bit
 * alphabet and would make some gateways send the whole screen as UCS-2 (half the characters).
 */
const ELLIPSIS = '...';

/** A line cut to at most `width` characters at a space where one is near, ending in `...`. */
function cut(line: string, width: number): string {
  if (line.length <= width) return line;
  const room = width - ELLIPSIS.length;
  if (room <= 0) return ELLIPSIS.slice(0, Math.max(width, 0));
  const head = line.slice(0, room);
  const space = head.lastIndexOf(' ');
  // Cut at the last space unless that throws away more than a third of what fits.
  const kept = space > (room * 2) / 3 ? head.slice(0, space) : head;
  return `${kept.replace(/[\s,;:.]+$/, '')}${ELLIPSIS}`;
}

/** The joined length of `lines`, one newline between each. */
const joinedLength = (lines: readonly string[]): number =>
  lines.reduce((sum, line) => sum + line.length, 0) + Math.max(lines.length - 1, 0);

/**
 * The body lines shortened to fit `budget` characters: the longest line is cut first (usually
 * the insurer's own words, while our short heading and the question to check stay whole), again
 * until they fit; a line with too little left is dropped, the first line last.
 */
function shorten(lines: readonly string[], budget: number): string[] {
  const out = [...lines];
  while (out.length > 0 && joinedLength(out) > budget) {
    let longest = 0;
    for (let i = 1; i < out.length; i++) {
      if ((out[i]?.length ?? 0) > (out[longest]?.length ?? 0)) longest = i;
    }
    const line = out[longest] ?? '';
    const width = line.length - (joinedLength(out) - budget);
    if (width >= 16 || (out.length === 1 && width > 0)) {
      out[longest] = cut(line, width);
    } else if (out.length > 1) {
      // Too little room to say anything of this line: the last line gives way to the others.
      out.splice(out.length - 1, 1);
    } else {
      out.pop();
    }
  }
  return out;
}

/**
 * Lays out a rendered Prompt as USSD screens of at most 182 characters. Choices are numbered by
 * position (1..n) across all screens. When it does not fit one screen, every screen but the last
 * ends with `98 More` and every screen but the first with `0 Back`; the footer counts.
 *
 * A screen with choices keeps them where a caller sees them: when the text would push them off
 * the first screen, the text is shortened on USSD (ending in `...`) so every choice fits on the
 * first screen, or, for a list longer than a screen, so its first choices start there. A text
 * without choices, one marked `paged` (a notice read before agreeing), and one whose shortening
 * would cut a number of three digits or more (a policy number, an amount, a date: a loan's
 * details) are paged whole, choices after the text. Telegram and Slack show the text in full.
 */
export function toUssdScreens(rendered: RenderedPrompt, locale: string): string[] {
  const more = `${USSD_MORE_KEY} ${t('ussd.more', undefined, locale)}`;
  const back = `${USSD_BACK_KEY} ${t('ussd.back', undefined, locale)}`;
  const text = rendered.text.trim();
  const body = text ? text.split('\n').map((line) => line.trimEnd()) : [];
  const options = rendered.choices.map((choice, index) => `${index + 1}. ${choice.label}`);

  const whole = [...body, ...options].join('\n');
  if (whole.length <= USSD_MAX_CHARS) return [whole];

  // Reserve the fullest footer a page can carry; the last page's unused room is the price of a
  // single greedy pass that can never overflow.
  const firstBudget = USSD_MAX_CHARS - (more.length + 1);
  const laterBudget = firstBudget - (back.length + 1);

  if (rendered.paged) return page([...body, ...options]);
  if (options.length > 0) {
    const choicesLength = joinedLength(options);
    // Every choice on one screen with at least a line's worth of the text above them.
    if (choicesLength + 1 + MIN_TEXT <= USSD_MAX_CHARS) {
      const kept = shorten(body, USSD_MAX_CHARS - choicesLength - 1);
      if (!losesANumber(body, kept)) return [[...kept, ...options].join('\n')];
      return page([...body, ...options]);
    }
    const kept = shorten(body, firstBudget - firstChoicesLength(options, firstBudget) - 1);
    return page([...(losesANumber(body, kept) ? body : kept), ...options]);
  }
  return page(body);

  function page(lines: readonly string[]): string[] {
    const screens: string[][] = [];
    let current: string[] = [];
    let used = 0;
    const budget = (): number => (screens.length === 0 ? firstBudget : laterBudget);
    for (const line of lines) {
      for (const piece of wrap(line, laterBudget)) {
        const cost = used === 0 ? piece.length : piece.length + 1;
        if (used + cost > budget() && current.length > 0) {
          screens.push(current);
          current = [];
          used = 0;
        }
        current.push(piece);
        used += used === 0 ? piece.length : piece.length + 1;
      }
    }
    if (current.length > 0) screens.push(current);

    return screens.map((screenBody, index) => {
      const footer: string[] = [];
      if (index < screens.length - 1) footer.push(more);
      if (index > 0) footer.push(back);
      return [...screenBody, ...footer].join('\n');
    });
  }
}

/**
 * The numbers a caller may need from a text: a policy or claim number, an amount, a date, a
 * plate's digits. Any run of three digits or more, with the separators it is written with.
 */
const NUMBER = /\d(?:[\d,./-]*\d)?/g;

/** How often each key number (three digits or more) occurs in `lines`. */
function keyNumbers(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    for (const [number] of line.matchAll(NUMBER)) {
      if (number.replace(/\D/g, '').length >= 3) counts.set(number, (counts.get(number) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * True when shortening the text cut or dropped one of its key numbers: a policy number or an
 * amount ending in `...` is worse than a second screen, so such a text is paged whole instead.
 */
function losesANumber(whole: readonly string[], kept: readonly string[]): boolean {
  const after = keyNumbers(kept);
  for (const [number, count] of keyNumbers(whole)) {
    if ((after.get(number) ?? 0) < count) return true;
  }
  return false;
}

/** Room the text above the choices keeps at least (about a line on a small phone). */
const MIN_TEXT = 40;

/**
 * The length of the choices a long list shows on its first screen: as many as fit in `budget`
 * with {@link MIN_TEXT} left for the text, at least the first.
 */
function firstChoicesLength(options: readonly string[], budget: number): number {
  let length = 0;
  for (const option of options) {
    const next = length === 0 ? option.length : length + 1 + option.length;
    if (length > 0 && next + 1 + MIN_TEXT > budget) break;
    length = next;
  }
  return Math.min(length, budget - 1 - MIN_TEXT);
}
