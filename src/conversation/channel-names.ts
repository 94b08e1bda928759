/**
 * The platforms insurechat speaks on: the one list every schema that stores a channel takes
 * (`z.enum(CHANNEL_NAMES)`), so adding a channel is adding it here.
 */
export const CHANNEL_NAMES = ['ussd', 'telegram', 'slack', 'web', 'whatsapp'] as const;
/** The platforms insurechat speaks on. */
export type ChannelName = (typeof CHANNEL_NAMES)[number];
