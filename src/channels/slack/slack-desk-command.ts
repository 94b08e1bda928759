import type { App } from '@slack/bolt';
import type { StaffLookups } from '../../privacy/index.js';
import type { SlackDeliver } from './slack-delivery.js';
import { type SlackDesk, staffWho } from './slack-desk.js';

// `bordereau <policyId> #channel`: Slack escapes a named channel as `<#C123|name>`.
const CHANNEL_MENTION = /<#([CG][A-Z0-9]+)(?:\|[^>]*)?>/;

/**
 * True when `word` (lower case) is a desk subcommand: one of the desk's `topics` (the staff desk
 * flow's, handed over by the server) or `help`. Anything else gets the help.
 */
export function isSubcommand(word: string, topics: readonly string[]): boolean {
  return word === 'help' || topics.includes(word);
}

/** What the slash command's handler needs. */
interface DeskCommandOptions {
  readonly command: string;
  /** The desk's topics: the first words a command may start with. */
  readonly topics: readonly string[];
  readonly desk: SlackDesk;
  readonly deliver: SlackDeliver;
  readonly audit: StaffLookups;
  /** One message key's text. */
  readonly text: (key: string, params?: Record<string, string>) => string;
}

/**
 * Adds the slash command (`/insure <subcommand>`): `audit` and the help are answered here, any
 * other subcommand is audited, then run as one desk query answered in the channel.
 */
export function registerDeskCommand(app: App, options: DeskCommandOptions): void {
  const { desk, deliver, audit, text } = options;

  /** The list of commands, after a word on what was not understood. */
  function help(word: string): string {
    const unknown =
      word === '' || word === 'help'
        ? []
        : [text('slack.usage', { command: word.slice(0, 30).replace(/[&<>`]/g, '') })];
    return [...unknown, text('slack.help')].join('\n\n');
  }

  app.command(options.command, async ({ command, ack, respond, client }) => {
    const mention = CHANNEL_MENTION.exec(command.text);
    const commandText = command.text.replace(CHANNEL_MENTION, ' ').trim();
    const word = (commandText.split(/\s+/)[0] ?? '').toLowerCase();
    const who = staffWho(command.team_id, command.user_id);
    if (word === 'audit') {
      const args = commandText.slice(word.length);
      const answer = await audit.answer({ who, member: command.user_id }, args);
      await ack({ response_type: 'ephemeral', text: answer });
      return;
    }
    if (word === '' || word === 'help' || !isSubcommand(word, options.topics)) {
      // Help needs no session.
      const body = help(word);
      await ack({
        response_type: 'ephemeral',
        text: body,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body } }],
      });
      return;
    }
    // Acknowledge first: Slack shows an error after 3 s, and a turn may call the insurer.
    await ack();
    if (!(await audit.record({ who, route: 'command', what: commandText }))) {
      await respond({ response_type: 'ephemeral', text: text('slack.audit.unavailable') });
      return;
    }
    const fileChannelId = mention?.[1];
    const to = {
      teamId: command.team_id,
      userId: command.user_id,
      channelId: command.channel_id,
      respond,
      client,
      ...(fileChannelId ? { fileChannelId } : {}),
    };
    await deliver(await desk.query(to, commandText), to);
  });
}
