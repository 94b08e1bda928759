import { describe, expect, it } from 'vitest';
import { createInbox, createSeenMessages } from '../../src/inbox/index.js';
import { createLogger } from '../../src/log/index.js';
import { createMemoryStore } from '../../src/storage/index.js';
import { manualClock } from '../support/manual-clock.js';

/*
 * The inbox on its own, in memory (timers, no Redis): a platform double whose turns fail when
 * told, and a sender recording what it sent.
 */

const DAY_MS = 24 * 3_600_000;
/** A platform's message as the inbox sees it: an id, a conversation, and what it says. */
interface Message {
  readonly id: string;
  readonly from: string;
  readonly body: string;
}
const message = (id: string, body: string): Message => ({ from: '260977000200', id, body });

function inboxWith(failures: Record<string, number>) {
  const store = createMemoryStore();
  const sent: string[] = [];
  const turns: string[] = [];
  const inbox = createInbox<Message, string>({
    name: 'chat',
    handler: {
      async answer(inbound) {
        const { body } = inbound;
        turns.push(body);
        const left = failures[body] ?? 0;
        if (left > 0) {
          failures[body] = left - 1;
          throw new Error('insurer down');
        }
        return { locale: 'en', messages: [`re: ${body}`] };
      },
      apology: () => 'sorry',
      async send(_to, out) {
        sent.push(out);
        return `wamid.out.${sent.length}`;
      },
    },
    store,
    keyPrefix: 't:',
    redis: undefined,
    logger: createLogger({ level: 'silent' }),
    seen: createSeenMessages(store, 't:chat-seen:'),
    backoffMs: 5,
  });
  return { inbox, sent, turns };
}

describe('the inbox', () => {
  it('runs a later message only after an earlier one that failed once has been retried', async () => {
    const { inbox, sent } = inboxWith({ first: 1 });
    await inbox.accept(message('m1', 'first'));
    await inbox.accept(message('m2', 'second'));
    await inbox.settled();
    expect(sent).toEqual(['re: first', 're: second']);
    await inbox.close();
  });

  it('apologises once after the last try of a turn that keeps failing, and goes on', async () => {
    const { inbox, sent, turns } = inboxWith({ broken: 99 });
    await inbox.accept(message('m1', 'broken'));
    await inbox.accept(message('m2', 'after'));
    await inbox.settled();
    expect(turns.filter((turn) => turn === 'broken')).toHaveLength(4);
    expect(sent).toEqual(['sorry', 're: after']);
    await inbox.close();
  });

  it('takes a message id once', async () => {
    const { inbox, sent } = inboxWith({});
    await inbox.accept(message('m1', 'hello'));
    await inbox.accept(message('m1', 'hello'));
    await inbox.settled();
    expect(sent).toEqual(['re: hello']);
    await inbox.close();
  });
});

describe('the remembered message ids', () => {
  it('remembers an id for 7 days on the clock it is given, then forgets it', async () => {
    const clock = manualClock();
    const seen = createSeenMessages(
      createMemoryStore({ now: clock.now }),
      'p:chat-seen:',
      clock.now,
    );
    expect(await seen.claim('wamid.1')).toBe(true);
    clock.advance(7 * DAY_MS);
    expect(await seen.claim('wamid.1')).toBe(false);
    clock.advance(2 * DAY_MS);
    expect(await seen.claim('wamid.1')).toBe(true);
  });
});
