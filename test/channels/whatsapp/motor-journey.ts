import { eventually } from '../../support/eventually.js';
import { type Screen, screenOf, type WhatsAppChat } from './whatsapp-chat.js';

/** The answers of a motor purchase up to paying: typed text, or the choice to tap. */
const MOTOR_ANSWERS: ReadonlyArray<readonly [RegExp, string | RegExp]> = [
  [/What would you like/i, /motor/i],
  [/^Motor insurance/i, /new cover/i],
  [/^Choose cover|Vehicle use|Choose a period/i, /./],
  [/number plate/i, 'PLATE'],
  [/make, model and year/i, 'Toyota Corolla 2017'],
  [/Chassis/i, 'CHASSIS'],
  [/Engine number/i, 'ENGINE'],
  [/mobile number/i, /use this number/i],
  // The NRC is the motor holder's, on record with another phone: this sender goes on as a new
  // holder of this policy only (issue 35; proving it needs the code sent to that phone).
  [/on record with another phone/i, /new holder/i],
  [/NRC/i, '479974/11/1'],
  [/full name/i, 'Mwila Banda'],
  [/e-?mail/i, 'mwila@example.com'],
  [/Correct\?/i, /yes/i],
];

/**
 * Pays from the "Pay with" screen by mobile money: the sender's own number (one tap on "My
 * number"), or another number typed; resolves the approval wait.
 */
export async function payByMobileMoney(
  chat: WhatsAppChat,
  payWith: Screen,
  from: 'own' | string,
): Promise<Screen> {
  if (from === 'own') return chat.tap(payWith, /^my number$/i);
  await chat.tap(payWith, /another number/i);
  return chat.text(from);
}

/**
 * Walks a motor purchase from the first message to the "Pay with" screen and pays from `from`;
 * resolves the screen after it (the approval wait) and the texts seen on the way.
 */
export async function buyMotorUntilPaying(
  chat: WhatsAppChat,
  plate: string,
  from: 'own' | string,
): Promise<{ screen: Screen; seen: string[] }> {
  let screen = await chat.text('Hello');
  const seen: string[] = [];
  for (let step = 0; step < 30; step += 1) {
    seen.push(screen.text);
    if (/Pay with/i.test(screen.text)) {
      return { screen: await payByMobileMoney(chat, screen, from), seen };
    }
    const answer = MOTOR_ANSWERS.find(([pattern]) => pattern.test(screen.text))?.[1];
    if (answer === undefined) throw new Error(`unexpected screen: ${screen.text}`);
    if (typeof answer !== 'string') screen = await chat.tap(screen, answer);
    else {
      const typed = answer
        .replace('PLATE', plate)
        .replace('CHASSIS', `CH${plate.replace(/\W/g, '')}`)
        .replace('ENGINE', `EN${plate.replace(/\W/g, '')}`);
      screen = await chat.text(typed);
    }
  }
  throw new Error(`never reached paying after: ${seen.join(' | ')}`);
}

/**
 * Waits until the chat has been sent a message whose text matches, and what follows it satisfies
 * `complete` (its certificate sent after it); resolves them as a screen.
 */
export async function pushed(
  chat: WhatsAppChat,
  text: RegExp,
  from = 0,
  complete: (screen: Screen) => boolean = () => true,
): Promise<Screen> {
  const find = () =>
    chat
      .sent()
      .slice(from)
      .findIndex((message) => text.test(screenOf([message]).text));
  // The message and what followed it in the same push (its document, its link).
  const screen = () => screenOf(chat.sent().slice(from + find()));
  await eventually(
    `a message matching ${text} was sent`,
    () => find() >= 0 && complete(screen()),
    15_000,
  );
  return screen();
}
