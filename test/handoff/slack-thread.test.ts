import { describe, expect, it } from 'vitest';
import { customerText, staffText } from '../../src/handoff/index.js';
import { readHandoffEvent } from '../../src/handoff/slack-thread.js';

describe('text between a customer and staff', () => {
  it("turns a staff member's Slack markup back into plain words for the customer", () => {
    expect(staffText('Hi <@U0MARY|mary>, see <https://insurer.example/faq|our FAQ>')).toBe(
      'Hi @mary, see our FAQ (https://insurer.example/faq)',
    );
    expect(staffText('Call &lt;now&gt; &amp; quote <tel:+260971234567>')).toBe(
      'Call <now> & quote tel:+260971234567',
    );
    expect(staffText('<!here> ask <#C0DESK|desk> or <@U0BOB>')).toBe('ask #desk or @staff');
  });

  it("masks a customer's NRC and phone and keeps Slack from reading their text as markup", () => {
    expect(customerText('NRC 479974/11/1, call 0977123456 <@U0MARY> & <!channel>')).toBe(
      'NRC ••••••/••/•, call •••••••456 &lt;@U0MARY&gt; &amp; &lt;!channel&gt;',
    );
  });

  it('clips a long message for a Slack section', () => {
    const long = customerText('a'.repeat(5_000));
    expect(long).toHaveLength(2_000);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('what Slack sends about a handoff thread', () => {
  const message = (event: Record<string, unknown>) => ({
    type: 'event_callback',
    event: {
      type: 'message',
      channel: 'C0HANDOFF',
      user: 'U0AGENT',
      text: 'Hello',
      ts: '2.0',
      thread_ts: '1.0',
      ...event,
    },
  });

  it('reads a reply also sent to the channel and a reply with files as replies', () => {
    expect(readHandoffEvent(message({ subtype: 'thread_broadcast' }), 'C0HANDOFF')).toMatchObject({
      kind: 'reply',
      threadTs: '1.0',
      text: 'Hello',
      files: [],
    });
    const file = { id: 'F1', name: 'a.pdf', url_private_download: 'https://files.slack.com/x' };
    expect(
      readHandoffEvent(
        message({ subtype: 'file_share', text: undefined, files: [file] }),
        'C0HANDOFF',
      ),
    ).toMatchObject({ kind: 'reply', text: '', files: [file] });
  });

  it("ignores edits, deletions, the bot's own posts and other channels", () => {
    expect(readHandoffEvent(message({ subtype: 'message_changed' }), 'C0HANDOFF')).toBeUndefined();
    expect(readHandoffEvent(message({ subtype: 'message_deleted' }), 'C0HANDOFF')).toBeUndefined();
    expect(readHandoffEvent(message({ bot_id: 'B1' }), 'C0HANDOFF')).toBeUndefined();
    expect(readHandoffEvent(message({}), 'C0OTHER')).toBeUndefined();
  });

  it('reads Reopen on a notice inside the thread as a reopen of that thread', () => {
    const click = (container: Record<string, unknown>) => ({
      type: 'block_actions',
      user: { id: 'U0AGENT' },
      container: { channel_id: 'C0HANDOFF', message_ts: '3.0', ...container },
      actions: [{ action_id: 'handoff.reopen' }],
    });
    expect(readHandoffEvent(click({ thread_ts: '1.0' }), 'C0HANDOFF')).toEqual({
      kind: 'reopen',
      slackChannel: 'C0HANDOFF',
      threadTs: '1.0',
      userId: 'U0AGENT',
    });
    expect(readHandoffEvent(click({}), 'C0HANDOFF')).toBeUndefined();
  });
});
