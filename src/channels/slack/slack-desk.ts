import type { App, types } from '@slack/bolt';
import {
  DESK_WORDS,
  type Prompt,
  type RenderPrompt,
  type StaffDesk,
} from '../../conversation/index.js';
import { errorFields, type Logger } from '../../log/index.js';
import { maskFileText, type StaffLookups } from '../../privacy/index.js';
import {
  type AnswerTarget,
  channelOfModal,
  field,
  fieldError,
  homeView,
  isShared,
  LOOKUP_BLOCK,
  LOOKUP_CALLBACK,
  LOOKUP_INPUT,
  lookupModal,
  noticeModal,
  openDm,
  postAnswer,
  uploadFile,
} from './bolt/index.js';
import {
  CHOICE_ACTION_PREFIX,
  LINK_ACTION_PREFIX,
  toSlackMessage,
} from './render-slack-message.js';

/** Where one answer goes: who asked, in which conversation, and how to reply there. */
interface SlackTarget extends AnswerTarget {
  readonly teamId: string;
  readonly userId: string;
  /** Where files go: a channel named in the command; by default the requester's DM. */
  readonly fileChannelId?: string;
}

/** The channel files go to: the one named, the DM the command came from, or a new DM. */
async function fileChannelOf(target: SlackTarget): Promise<string> {
  if (target.fileChannelId) return target.fileChannelId;
  return isShared(target.channelId) ? openDm(target.client, target.userId) : target.channelId;
}

/** A staff member as the audit records them: `<team>:<user>`. */
export function staffWho(teamId: string, userId: string): string {
  return `${teamId}:${userId}`;
}

// `bordereau <policyId> #channel`: Slack escapes a named channel as `<#C123|name>`.
const CHANNEL_MENTION = /<#([CG][A-Z0-9]+)(?:\|[^>]*)?>/;

/** What the desk's listeners need. */
interface SlackDeskOptions {
  readonly command: string;
  /** What a command means, audited before it runs (src/conversation/policy). */
  readonly desk: StaffDesk;
  /** The audit's reading (`/insure audit`), for its admins. */
  readonly audit: StaffLookups;
  readonly render: RenderPrompt;
  readonly locale: string;
  /** One message key's text. */
  readonly text: (key: string, params?: Record<string, string>) => string;
  readonly log: Logger;
}

/** Who asks from a lookup modal (its conversation: where files go, whether names are masked). */
type InModal = Pick<SlackTarget, 'teamId' | 'userId' | 'channelId' | 'client'> & {
  readonly viewId: string;
};

/**
 * Adds the staff desk's listeners, which only translate: the slash command (`/insure
 * <subcommand>`), the answers' buttons ("Another lookup" opens the lookup modal, whose command is
 * answered in the modal, private to who asked), the App Home's summary (private, unmasked).
 */
export function registerSlackDesk(app: App, options: SlackDeskOptions): void {
  const { desk, audit, text } = options;
  /** Delivers a Prompt to a {@link SlackTarget}: Block Kit, then its files (masked where shared). */
  const deliver = async (prompt: Prompt, target: SlackTarget): Promise<void> => {
    const mask = isShared(target.channelId);
    const message = toSlackMessage(prompt, options.render, options.locale, { mask });
    // Files (the bordereau lists borrowers) go privately to the requester unless a channel was
    // named; the answer says where they went.
    const fileChannelId = message.files.length > 0 ? await fileChannelOf(target) : undefined;
    const blocks: typeof message.blocks = [...message.blocks];
    if (fileChannelId && fileChannelId !== target.channelId) {
      const where = target.fileChannelId
        ? text('slack.fileSentTo', { channel: `<#${fileChannelId}>` })
        : text('slack.fileSentPrivately');
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: where }] });
    }
    await postAnswer(target, { text: message.text, blocks });
    if (!fileChannelId) return;
    // A register in a shared channel keeps its shape, not whom it lists.
    const fileMask = isShared(fileChannelId);
    for (const file of message.files) {
      await uploadFile(target.client, fileChannelId, file, (content) =>
        fileMask ? maskFileText(file.fileName, content) : content,
      );
    }
  };
  /** Who asks, from where: the desk keys their sessions and audits them by it. */
  const asker = (to: SlackTarget) => ({
    who: staffWho(to.teamId, to.userId),
    member: to.userId,
    address: {
      channel: 'slack' as const,
      address: `${to.teamId}:${to.channelId}:${to.userId}`,
      locale: options.locale,
    },
  });

  const updateModal = (at: InModal, view: ReturnType<typeof lookupModal>) =>
    at.client.views.update({ view_id: at.viewId, view });
  /** Runs a look-up answered in the modal, in place of its "Looking up…"; a failure says so. */
  const answerIn = async (at: InModal, ask: (to: SlackTarget) => Promise<Prompt>) => {
    const to: SlackTarget = {
      ...at,
      show: async (answer) => {
        await updateModal(at, lookupModal(at.channelId, text, answer.blocks));
      },
    };
    try {
      await deliver(await ask(to), to);
    } catch (error) {
      await updateModal(at, noticeModal(at.channelId, text, 'engine.error')).catch(() => undefined);
      throw error;
    }
  };

  app.command(options.command, async ({ command, ack, respond, client }) => {
    const mention = CHANNEL_MENTION.exec(command.text);
    const asked = desk.read(command.text.replace(CHANNEL_MENTION, ' ').trim());
    if (asked.kind === 'audit') {
      const who = staffWho(command.team_id, command.user_id);
      const answer = await audit.answer({ who, member: command.user_id }, asked.args);
      await ack({ response_type: 'ephemeral', text: answer });
      return;
    }
    if (asked.kind === 'help') {
      // Help needs no session; what was not understood is named, inert, above it.
      const word = asked.unknown?.slice(0, 30).replace(/[&<>`]/g, '');
      const unknown = asked.unknown ? [text('slack.usage', { command: word ?? '' })] : [];
      const body = [...unknown, text('slack.help')].join('\n\n');
      const blocks = [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: body } }];
      await ack({ response_type: 'ephemeral', text: body, blocks });
      return;
    }
    // Acknowledge first: Slack shows an error after 3 s, and a turn may call the insurer.
    await ack();
    const fileChannelId = mention?.[1];
    const to = {
      teamId: command.team_id,
      userId: command.user_id,
      channelId: command.channel_id,
      respond,
      client,
      ...(fileChannelId ? { fileChannelId } : {}),
    };
    await deliver(await desk.query(asker(to), 'command', asked.text), to);
  });

  app.action(
    new RegExp(`^${CHOICE_ACTION_PREFIX}`),
    async ({ ack, body, action, respond, client }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button' || !action.value) return;
      const teamId = body.team?.id ?? body.user.team_id;
      if (!teamId) return;
      const id = action.value;
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
      if (id === DESK_WORDS.another) {
        if (modal) await updateModal(modal, lookupModal(modal.channelId, text));
        else if (body.trigger_id) {
          await client.views.open({
            trigger_id: body.trigger_id,
            view: lookupModal(channelId, text),
          });
        }
        return;
      }
      if (modal) {
        await updateModal(modal, noticeModal(channelId, text, 'slack.lookup.working'));
        await answerIn(modal, (to) => desk.choose(asker(to), id));
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
      await deliver(await desk.choose(asker(to), id), to);
    },
  );

  // The lookup modal's command, answered as the slash command answers it, in the modal itself:
  // "Looking up…" at once, then the answer in its place.
  app.view(LOOKUP_CALLBACK, async ({ ack, body, view, client }) => {
    const typed = view.state.values[LOOKUP_BLOCK]?.[LOOKUP_INPUT]?.value?.trim() ?? '';
    if (!desk.runs(typed)) {
      await ack(fieldError(text('slack.lookup.unknown')));
      return;
    }
    const teamId = body.team?.id ?? view.team_id;
    const channelId = channelOfModal(view.private_metadata) ?? body.user.id;
    await ack({
      response_action: 'update',
      view: noticeModal(channelId, text, 'slack.lookup.working'),
    });
    const modal = { teamId, userId: body.user.id, viewId: view.id, channelId, client };
    await answerIn(modal, (to) => desk.query(asker(to), 'modal', typed));
  });

  // Slack sends an action for URL buttons too; acknowledging is all there is to do.
  app.action(new RegExp(`^${LINK_ACTION_PREFIX}`), async ({ ack }) => {
    await ack();
  });

  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const to = {
      teamId: field(body, 'team_id') ?? '',
      userId: event.user,
      channelId: event.channel,
    };
    let summary: types.KnownBlock[] = [
      { type: 'section', text: { type: 'mrkdwn', text: text('slack.home.unavailable') } },
    ];
    try {
      const prompt = await desk.query(asker({ ...to, client }), 'home', DESK_WORDS.today);
      summary = toSlackMessage({ ...prompt, choices: [] }, options.render, options.locale, {
        mask: false,
      }).blocks;
    } catch (error) {
      options.log.warn(errorFields(error), 'slack home summary failed');
    }
    await client.views.publish({
      user_id: event.user,
      view: homeView(text('slack.home'), summary),
    });
  });
}
