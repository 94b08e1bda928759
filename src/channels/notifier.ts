import type { ChannelAddress, ChannelName, Prompt } from '../conversation/index.js';

/**
 * Reaches a user outside a turn: Telegram sendMessage, Slack chat.postMessage, SMS for USSD users.
 * Implementations live with their channel, but WhatsApp's in src/push (outside its 24-hour
 * window, delivery is policy); payments, reminders and handoff pick one by `address.channel`.
 * `notify` resolves once the platform accepted the message and throws when it did not.
 */
export interface Notifier {
  readonly channel: ChannelName;
  notify(address: ChannelAddress, prompt: Prompt): Promise<void>;
}
