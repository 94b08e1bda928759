import { LOCALE_NAMES } from '../../conversation/index.js';
import { type RenderPrompt, renderKey } from '../shared/index.js';

/**
 * A word a customer types instead of a button, as Telegram's commands: `menu` (/start) opens the
 * main menu afresh, `cancel` (/cancel) stops what they are doing, `done` (/done) leaves the person.
 */
type TypedCommand = 'menu' | 'cancel' | 'done';

const COMMANDS: readonly TypedCommand[] = ['menu', 'cancel', 'done'];

/**
 * The command a whole message is, in any of our languages (the customer's is the language
 * policy's to know, in the engine; many write English whatever their language); undefined for
 * anything else, which is an answer for the flow. The words are the catalogues'
 * `whatsapp.word.*`, comma-separated, matched without case.
 */
export function typedCommand(text: string, render: RenderPrompt): TypedCommand | undefined {
  const typed = text.trim().toLowerCase();
  const spoken = Object.keys(LOCALE_NAMES);
  return COMMANDS.find((command) =>
    spoken.some((language) =>
      renderKey(render, `whatsapp.word.${command}`, language)
        .split(',')
        .some((word) => word.trim().toLowerCase() === typed),
    ),
  );
}
