import type { types } from '@slack/bolt';
import { t } from '../conversation/index.js';
import { errorFields, type Logger } from '../log/index.js';
import type { OpenHandoff } from './handoff-store.js';
import { endedRootBlocks, type HandoffSlackClient, HandoffSlackError } from './slack-thread.js';

/** Where staff are: the Slack Web API and the handoff channel; undefined when nobody is. */
type StaffSlack = { readonly client: HandoffSlackClient; readonly channel: string } | undefined;

/** What the handoff posts to its Slack thread: the root, notes, and the root marked ended or open. */
export function createThreadPoster(slack: StaffSlack, log: Logger) {
  async function post(
    text: string,
    threadTs?: string,
    blocks?: types.KnownBlock[],
  ): Promise<string> {
    if (!slack) throw new HandoffSlackError('no handoff channel');
    const result = await slack.client.chat.postMessage({
      channel: slack.channel,
      text,
      ...(blocks ? { blocks } : {}),
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    if (!result.ok || !result.ts) throw new HandoffSlackError('Slack did not post the message');
    return result.ts;
  }

  /** Best effort: a note in the thread must not fail what it reports on. */
  async function note(handoff: Pick<OpenHandoff, 'threadTs'>, text: string): Promise<void> {
    try {
      await post(text, handoff.threadTs);
    } catch (error) {
      log.warn(errorFields(error), 'handoff thread note not posted');
    }
  }

  async function markEnded(
    handoff: OpenHandoff,
    endedBy: { staffUserId: string } | 'customer',
  ): Promise<void> {
    if (!slack) return;
    try {
      await slack.client.chat.update({
        channel: handoff.slackChannel,
        ts: handoff.threadTs,
        text: t('handoff.slack.ended'),
        blocks: endedRootBlocks(handoff.root, endedBy),
      });
    } catch (error) {
      log.warn(errorFields(error), 'handoff root not updated');
    }
  }

  /** A reopened handoff's root gets its context and Resolve button back. */
  async function markOpen(handoff: OpenHandoff): Promise<void> {
    if (!slack) return;
    try {
      await slack.client.chat.update({
        channel: handoff.slackChannel,
        ts: handoff.threadTs,
        text: t('handoff.slack.reopened'),
        blocks: handoff.root as types.KnownBlock[],
      });
    } catch (error) {
      log.warn(errorFields(error), 'handoff root not updated');
    }
  }

  return { post, note, markEnded, markOpen };
}
