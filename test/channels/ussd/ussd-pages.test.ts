import { describe, expect, it } from 'vitest';
import { UssdPages } from '../../../src/channels/ussd/ussd-pages.js';
import { createLogger } from '../../../src/log/index.js';
import { createMemoryStore, type KeyValueStore } from '../../../src/storage/index.js';

const silent = createLogger({ level: 'silent' });
const call = { sessionId: 'ATUid_pages', msisdn: '260977000321' };
/** A request of the call as Africa's Talking says it: its history, and the one before. */
const at = (history: string, follows: string) => ({
  ...call,
  input: history.slice(history.lastIndexOf('*') + 1),
  history,
  step: { id: history, follows },
});
const SCREENS = ['page one\n98 More', 'page two\n98 More\n0 Back', 'page three\n0 Back'];

describe('the kept pages of a long USSD screen', () => {
  async function shownAt(history: string, end = false): Promise<UssdPages> {
    const pages = new UssdPages(createMemoryStore(), 'test:', silent);
    await pages.shown(at(history, ''), SCREENS, 0, end);
    return pages;
  }

  it('answers 98 More and 0 Back on the screen the request before showed', async () => {
    const pages = await shownAt('6');
    expect(await pages.turn(at('6*98', '6'))).toEqual({ text: SCREENS[1], end: false });
    expect(await pages.turn(at('6*98*98', '6*98'))).toEqual({ text: SCREENS[2], end: false });
    expect(await pages.turn(at('6*98*98*0', '6*98*98'))).toEqual({ text: SCREENS[1], end: false });
  });

  it('answers the gateway’s retry of a page with the same page', async () => {
    const pages = await shownAt('6');
    await pages.turn(at('6*98', '6'));
    expect(await pages.turn(at('6*98', '6'))).toEqual({ text: SCREENS[1], end: false });
  });

  it('ends the call on the last page of a closing screen', async () => {
    const pages = await shownAt('6', true);
    await pages.turn(at('6*98', '6'));
    expect(await pages.turn(at('6*98*98', '6*98'))).toEqual({ text: SCREENS[2], end: true });
  });

  it('leaves to the engine, with the page on screen, a paging key that cannot move', async () => {
    const pages = await shownAt('6');
    expect(await pages.turn(at('6*0', '6'))).toEqual({ onPage: 0 });
    await pages.turn(at('6*98', '6'));
    await pages.turn(at('6*98*98', '6*98'));
    expect(await pages.turn(at('6*98*98*98', '6*98*98'))).toEqual({ onPage: 2 });
  });

  it('leaves to the engine a paging key after another screen, and any other keypress', async () => {
    const pages = await shownAt('6');
    // The engine answered "6*1" with a screen of one page since: the kept one is not on screen.
    expect(await pages.turn(at('6*1*98', '6*1'))).toBeUndefined();
    expect(await pages.turn(at('6*1', '6'))).toBeUndefined();
    expect(await pages.turn({ ...call, input: '98' })).toBeUndefined();
  });

  it('keeps no screen of one page, and leaves paging to the engine when the store fails', async () => {
    const pages = new UssdPages(createMemoryStore(), 'test:', silent);
    await pages.shown(at('6', ''), ['one page'], 0, false);
    expect(await pages.turn(at('6*98', '6'))).toBeUndefined();
    const failing = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => Promise.reject(new Error('redis down')),
    } as unknown as KeyValueStore;
    const down = new UssdPages(failing, 'test:', silent);
    await down.shown(at('6', ''), SCREENS, 0, false);
    expect(await down.turn(at('6*98', '6'))).toBeUndefined();
  });
});
