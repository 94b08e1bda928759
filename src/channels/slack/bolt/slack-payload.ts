import { LOOKUP_BLOCK, LOOKUP_INPUT } from './slack-views.js';

/** Reads a string field of an untyped payload object. */
export function field(value: unknown, ...path: string[]): string | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' ? current : undefined;
}

/** Who sent a command, an action or an event, from the shapes Slack uses for each. */
export function identity(body: unknown): { teamId?: string; userId?: string } {
  const teamId =
    field(body, 'team_id') ?? field(body, 'team', 'id') ?? field(body, 'user', 'team_id');
  const userId =
    field(body, 'user_id') ?? field(body, 'user', 'id') ?? field(body, 'event', 'user');
  return {
    ...(teamId === undefined ? {} : { teamId }),
    ...(userId === undefined ? {} : { userId }),
  };
}

/** What a desk request asks, by the route it came by: the text typed or the button's value. */
export interface SlackAsk {
  readonly route: 'command' | 'button' | 'modal' | 'home';
  /** The command's text, the button's value (else its action id), the modal's field; '' for home. */
  readonly what: string;
}

/**
 * What a command, a button, the lookup modal's submission or the App Home's opening asks, from the
 * shapes Slack uses for each; undefined for anything else (events in channels the bot sits in).
 */
export function askOf(body: unknown): SlackAsk | undefined {
  const type = field(body, 'type');
  if (field(body, 'command') !== undefined)
    return { route: 'command', what: field(body, 'text') ?? '' };
  if (type === 'block_actions') {
    const actions = (body as { actions?: unknown }).actions;
    const first: unknown = Array.isArray(actions) ? actions[0] : undefined;
    return { route: 'button', what: field(first, 'value') ?? field(first, 'action_id') ?? '' };
  }
  if (type === 'view_submission') {
    const typed = field(body, 'view', 'state', 'values', LOOKUP_BLOCK, LOOKUP_INPUT, 'value');
    return { route: 'modal', what: typed ?? '' };
  }
  return field(body, 'event', 'type') === 'app_home_opened'
    ? { route: 'home', what: '' }
    : undefined;
}

/** Direct-message conversation ids start with D; anything else may be read by others. */
export function isShared(channelId: string): boolean {
  return !channelId.startsWith('D');
}

/**
 * Escapes the three characters Slack's mrkdwn treats as control characters, so text shown in
 * Slack cannot mention, ping or link (the channel's answers and the handoff's customer words).
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
