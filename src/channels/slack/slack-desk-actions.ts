import type { App } from '@slack/bolt';
import { z } from 'zod';
import { CHOICE_ACTION_PREFIX, LINK_ACTION_PREFIX } from './render-slack-message.js';
import type { SlackAudit } from './slack-audit.js';
import type { SlackDeliver, SlackTarget } from './slack-delivery.js';
import type { SlackDesk } from './slack-desk.js';
import { isSubcommand } from './slack-desk-command.js';

/** The staff desk's "Another lookup" choice: opens the lookup modal instead of a turn. */
const ANOTHER_LOOKUP = 'another';
const LOOKUP_CALLBACK = 'insure_lookup';
const LOOKUP_BLOCK = 'lookup';
const LOOKUP_INPUT = 'command';

const ModalMetadata = z.object({ channelId: z.string().min(1).max(40) });

/** The channel a lookup modal was opened from, kept in its private metadata. */
function channelOfModal(metadata: string): string | undefined {
  try {
    const parsed = ModalMetadata.safeParse(JSON.parse(metadata));
    return parsed.success ? parsed.data.channelId : undefined;
  } catch {
    return undefined;
  }
}

function lookupModal(channelId: string, text: (key: string) => string) {
  return {
    type: 'modal' as const,
    callback_id: LOOKUP_CALLBACK,
    private_metadata: JSON.stringify({ channelId }),
    title: { type: 'plain_text' as const, text: text('slack.lookup.title') },
    submit: { type: 'plain_text' as const, text: text('slack.lookup.submit') },
    blocks: [
      {
        type: 'input' as const,
        block_id: LOOKUP_BLOCK,
        label: { type: 'plain_text' as const, text: text('slack.lookup.label') },
        hint: { type: 'plain_text' as const, text: text('slack.lookup.hint') },
        element: { type: 'plain_text_input' as const, action_id: LOOKUP_INPUT },
      },
    ],
  };
}

/** What the button and modal handlers need. */
export interface DeskActionOptions {
  readonly desk: SlackDesk;
  readonly deliver: SlackDeliver;
  /** Records each look-up before it runs; one that cannot be recorded is not made. */
  readonly audit: SlackAudit;
  /** One message key's text. */
  readonly text: (key: string) => string;
}

/**
 * Adds the handlers of the desk's buttons: a choice goes to the desk session, "Another lookup"
 * opens a modal whose command is answered as the slash command answers it, URL buttons are
 * only acknowledged.
 */
export function registerDeskActions(app: App, options: DeskActionOptions): void {
  const { desk, deliver, audit, text } = options;

  app.action(
    new RegExp(`^${CHOICE_ACTION_PREFIX}`),
    async ({ ack, body, action, respond, client }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button' || !action.value) return;
      const teamId = body.team?.id ?? body.user.team_id;
      const channelId = body.channel?.id ?? body.user.id;
      if (!teamId) return;
      // "Another lookup" asks for a command the staff member types: a modal with a text field.
      if (action.value === ANOTHER_LOOKUP && body.trigger_id) {
        await client.views.open({
          trigger_id: body.trigger_id,
          view: lookupModal(channelId, text),
        });
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
      // A button can run a look-up (today, claims, retry): recorded first, like a command.
      const attempt = {
        teamId,
        userId: body.user.id,
        route: 'button',
        what: action.value,
      } as const;
      if (!(await audit.record(attempt))) {
        if (body.response_url)
          await respond({ response_type: 'ephemeral', text: text('slack.audit.unavailable') });
        return;
      }
      await deliver(await desk.reply(to, { type: 'user.choice', id: action.value }), to);
    },
  );

  // The lookup modal's command, answered as the slash command answers it, in the channel the
  // button was in (masked there when it is shared).
  app.view(LOOKUP_CALLBACK, async ({ ack, body, view, client }) => {
    const typed = view.state.values[LOOKUP_BLOCK]?.[LOOKUP_INPUT]?.value?.trim() ?? '';
    const word = (typed.split(/\s+/)[0] ?? '').toLowerCase();
    if (!isSubcommand(word)) {
      await ack({
        response_action: 'errors',
        errors: { [LOOKUP_BLOCK]: text('slack.lookup.unknown') },
      });
      return;
    }
    const teamId = body.team?.id ?? view.team_id;
    // Recorded before the modal closes: one that cannot be recorded stays open and says so.
    const attempt = { teamId, userId: body.user.id, route: 'modal', what: typed } as const;
    if (!(await audit.record(attempt))) {
      await ack({
        response_action: 'errors',
        errors: { [LOOKUP_BLOCK]: text('slack.audit.unavailable') },
      });
      return;
    }
    await ack();
    const channelId = channelOfModal(view.private_metadata) ?? body.user.id;
    const to: SlackTarget = { teamId, userId: body.user.id, channelId, client };
    await deliver(await desk.query(to, typed), to);
  });

  // Slack sends an action for URL buttons too; acknowledging is all there is to do.
  app.action(new RegExp(`^${LINK_ACTION_PREFIX}`), async ({ ack }) => {
    await ack();
  });
}
