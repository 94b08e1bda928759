/** The choice id of "Renew <policy>" in the entry menu and on a reminder's button. */
export const RENEW_CHOICE_PREFIX = 'renew:';

/** The entry menu's "Stop reminders" item, also a button under a chat reminder. */
export const REMINDERS_OFF_CHOICE = 'reminders-off';

/** The entry menu's "Turn reminders on" item, shown while the holder's reminders are off. */
export const REMINDERS_ON_CHOICE = 'reminders-on';

/**
 * True for a button of a message sent out of turn (a reminder's Renew now or Stop reminders):
 * it belongs to no step of the conversation, so the channel opens the entry menu afresh and
 * picks it there.
 */
export function isMenuShortcut(choiceId: string): boolean {
  return choiceId.startsWith(RENEW_CHOICE_PREFIX) || choiceId === REMINDERS_OFF_CHOICE;
}
