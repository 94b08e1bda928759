import type { App, webApi } from '@slack/bolt';
import type { Prompt } from '../../conversation/index.js';
import type { StaffLookups } from '../../privacy/index.js';
import {
  channelOfModal,
  fieldError,
  LOOKUP_BLOCK,
  LOOKUP_CALLBACK,
  LOOKUP_INPUT,
  lookupModal,
  noticeModal,
} from './bolt/index.js';
import { CHOICE_ACTION_PREFIX, LINK_ACTION_PREFIX } from './render-slack-message.js';
import type { SlackDeliver, SlackTarget } from './slack-delivery.js';
import { type SlackDesk, staffWho } from './slack-desk.js';
import { isSubcommand } from './slack-desk-command.js';

/** The staff desk's "Another lookup" choice: opens the lookup modal instead of a turn. */
const ANOTHER_LOOKUP = 'another';

/** What the button and modal handlers need. */
interface DeskActionOptions {
  /** The desk's topics: what a typed look-up may start with. */
  readonly topics: readonly string[];
  readonly desk: SlackDesk;
  readonly deliver: SlackDeliver;
  /** Records each look-up before it runs; one that cannot be recorded is not made. */
  readonly audit: StaffLookups;
  /** One message key's text. */
  readonly text: (key: string) => string;
}

/** Who asks from a lookup modal, and the modal the answer goes to. */
interface InModal {
  readonly teamId: string;
  readonly userId: string;
  readonly viewId: string;
  /** The conversation the modal was opened from (files and masking follow it). */
  readonly channelId: string;
  readonly client: webApi.WebClient;
}

/**
 * Adds the handlers of the desk's buttons: a choice goes to the desk session, "Another lookup"
 * opens a modal whose command is answered as the slash command answers it, URL buttons are
 * only acknowledged. What the modal looks up is answered in the modal: private to the staff
 * member who asked (never posted to the conversation it was opened from) and audited first.
 */
export function registerDeskActions(app: App, options: DeskActionOptions): void {
  const { desk, deliver, audit, text } = options;

  const updateModal = (at: InModal, view: ReturnType<typeof lookupModal>) =>
    at.client.views.update({ view_id: at.viewId, view });
  /** The desk's answer shown in the modal, in place of its "Looking up…". */
  const targetIn = (at: InModal): SlackTarget => ({
    teamId: at.teamId,
    userId: at.userId,
    channelId: at.channelId,
    client: at.client,
    show: async (answer) => {
      await updateModal(at, lookupModal(at.channelId, text, answer.blocks));
    },
  });
  /** Runs a look-up answered in the modal; a failure says so there instead of hanging. */
  const answerIn = async (at: InModal, ask: (to: SlackTarget) => Promise<Prompt>) => {
    const to = targetIn(at);
    try {
      await deliver(await ask(to), to);
    } catch (error) {
      await updateModal(at, noticeModal(at.channelId, text, 'engine.error')).catch(() => undefined);
      throw error;
    }
  };

  app.action(
    new RegExp(`^${CHOICE_ACTION_PREFIX}`),
    async ({ ack, body, action, respond, client }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button' || !action.value) return;
      const teamId = body.team?.id ?? body.user.team_id;
      if (!teamId) return;
      // A button of an answer shown in the lookup modal: answered in the same modal.
      const view = body.view?.callback_id === LOOKUP_CALLBACK ? body.view : undefined;
      const modal: InModal | undefined = view && {
        teamId,
        userId: body.user.id,
        viewId: view.id,
        channelId: channelOfModal(view.private_metadata) ?? body.user.id,
        client,
      };
      const channelId = modal?.channelId ?? body.channel?.id ?? body.user.id;
      // "Another lookup" asks for a command the staff member types: a modal with a text field.
      if (action.value === ANOTHER_LOOKUP) {
        if (modal) await updateModal(modal, lookupModal(modal.channelId, text));
        else if (body.trigger_id) {
          await client.views.open({
            trigger_id: body.trigger_id,
            view: lookupModal(channelId, text),
          });
        }
        return;
      }
      // A button can run a look-up (today, claims, retry): recorded first, like a command.
      const who = staffWho(teamId, body.user.id);
      if (!(await audit.record({ who, route: 'button', what: action.value }))) {
        if (modal)
          await updateModal(modal, noticeModal(channelId, text, 'slack.audit.unavailable'));
        else if (body.response_url)
          await respond({ response_type: 'ephemeral', text: text('slack.audit.unavailable') });
        return;
      }
      const reply = { type: 'user.choice', id: action.value } as const;
      if (modal) {
        await updateModal(modal, noticeModal(channelId, text, 'slack.lookup.working'));
        await answerIn(modal, (to) => desk.reply(to, reply));
        return;
      }
      const to: SlackTarget = {
        teamId,
        userId: body.user.id,
        channelId,
        // App Home buttons come without a response_url; their answer goes by chat.postMessage.
        ...(body.response_url ? { respond } : {}),
        client,
      };
      await deliver(await desk.reply(to, reply), to);
    },
  );

  // The lookup modal's command, answered as the slash command answers it, in the modal itself:
  // "Looking up…" at once, then the answer in its place.
  app.view(LOOKUP_CALLBACK, async ({ ack, body, view, client }) => {
    const typed = view.state.values[LOOKUP_BLOCK]?.[LOOKUP_INPUT]?.value?.trim() ?? '';
    const word = (typed.split(/\s+/)[0] ?? '').toLowerCase();
    if (!isSubcommand(word, options.topics)) {
      await ack(fieldError(text('slack.lookup.unknown')));
      return;
    }
    const teamId = body.team?.id ?? view.team_id;
    // Recorded before the look-up: one that cannot be recorded stays open and says so.
    const who = staffWho(teamId, body.user.id);
    if (!(await audit.record({ who, route: 'modal', what: typed }))) {
      await ack(fieldError(text('slack.audit.unavailable')));
      return;
    }
    const channelId = channelOfModal(view.private_metadata) ?? body.user.id;
    await ack({
      response_action: 'update',
      view: noticeModal(channelId, text, 'slack.lookup.working'),
    });
    const modal = { teamId, userId: body.user.id, viewId: view.id, channelId, client };
    await answerIn(modal, (to) => desk.query(to, typed));
  });

  // Slack sends an action for URL buttons too; acknowledging is all there is to do.
  app.action(new RegExp(`^${LINK_ACTION_PREFIX}`), async ({ ack }) => {
    await ack();
  });
}
