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
