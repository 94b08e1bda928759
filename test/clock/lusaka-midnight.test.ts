import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lusakaToday } from '../../src/clock/index.js';
import {
  AUDIENCES,
  type ConversationEngine,
  createTurnEngine,
  type FlowRegistry,
  type Prompt,
  type Reply,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { FLOW_IDS, worldMachine } from '../flows/fixtures.js';

// Issue 26: the flows took "today" from the UTC date, so from 00:00 to 02:00 in Lusaka a loss
// of today was refused as a date in the future and yesterday was offered as a travel start.
// The engine now gives every flow the Lusaka date from the one clock (src/clock).

/** 23:30 UTC on 25 November: already 01:30 on 26 November in Lusaka. */
const LATE_UTC = new Date('2026-11-25T23:30:00Z');

const registry = Object.fromEntries(
  FLOW_IDS.map((id) => [
    id,
    // The entry menu opens every audience's fresh session.
    {
      id,
      version: 1,
      machine: worldMachine(id),
      ...(id === 'main-menu' ? { entryFor: AUDIENCES } : {}),
    },
  ]),
) as FlowRegistry;

const text = (value: string): Reply => ({ type: 'user.text', text: value });
const choose = (id: string): Reply => ({ type: 'user.choice', id });
const noteKeys = (prompt: Prompt) => (prompt.notes ?? []).map((note) => note.key);

let engine: ConversationEngine;

beforeEach(() => {
  // Only Date is faked: the flows and the engine read the wall clock, nothing waits on timers.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(LATE_UTC);
  engine = createTurnEngine({
    store: new MemorySessionStore(),
    flows: registry,
    logger: createLogger({ level: 'silent' }),
  });
});

afterEach(async () => {
  await engine.idle();
  engine.close();
  vi.useRealTimers();
});

/** Walks `replies` from the entry menu; resolves the last screen. */
async function walk(replies: readonly Reply[]): Promise<Prompt> {
  let prompt = await engine.turn('tg:1', text(''));
  for (const reply of replies) prompt = await engine.turn('tg:1', reply);
  return prompt;
}

describe('today in Lusaka after midnight, before midnight UTC', () => {
  it('is the next day in Lusaka', () => {
    expect(lusakaToday(LATE_UTC.getTime())).toBe('2026-11-26');
  });

  it('accepts a loss of today as a claim date', async () => {
    // A claim comes from a phone: the chat shares its own when asked (issue 35).
    const contact: Reply = { type: 'user.contact', phone: '0971234567' };
    const toLossDate = [choose('claim'), choose('credit-life'), contact, text('LN-0001')];
    const asked = await walk([...toLossDate, text('LOAN-1'), choose('t0')]);
    expect(asked.key).toBe('claim.askDate.credit-life');
    const answered = await engine.turn('tg:1', text('26/11/2026'));
    expect(noteKeys(answered)).not.toContain('validation.date.notTodayOrPast');
    expect(answered.key).toBe('claim.askDetails');
  });

  it('accepts a trip starting today and refuses one that started yesterday', async () => {
    const asked = await walk([choose('travel'), text('South Africa')]);
    expect(asked.key).toBe('travel.askStartDate');
    const yesterday = await engine.turn('tg:1', text('25/11/2026'));
    expect(yesterday.key).toBe('travel.askStartDate');
    expect(noteKeys(yesterday)).toContain('validation.date.notTodayOrFuture');
    const today = await engine.turn('tg:1', text('26/11/2026'));
    expect(today.key).toBe('travel.askDays');
  });
});
