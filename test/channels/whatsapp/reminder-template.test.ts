import { expect, it } from 'vitest';
import { advanceRedisTtls, type ManualClock, manualClock } from '../../support/manual-clock.js';
import { buyMotorUntilPaying, pushed } from './motor-journey.js';
import { useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * Renewal reminders on WhatsApp: inside the customer's 24-hour window an ordinary message with
 * its buttons; once their last message is older than 24 hours, the approved reminder template,
 * its named parameters the policy, the vehicle and the end date, and the reminder with its
 * buttons when they answer. The reminder clock is moved by hand; the window's Redis key is aged
 * by shortening its TTL, as Redis's own clock would.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock: ManualClock = manualClock();
const server = useWhatsAppServer({}, { reminderClock: clock.now });

/** Sets the reminder clock to `hour` o'clock in Lusaka (UTC+2), `daysBefore` days before `date`. */
function setLusakaTime(date: string, daysBefore: number, hour: number): void {
  const target = Date.parse(`${date}T00:00:00Z`) - daysBefore * DAY + (hour - 2) * HOUR;
  clock.advance(target - clock.now());
}

it('reminds inside the window as a message with buttons, and outside it as the approved template', async () => {
  const waId = '260971234568';
  const { app } = server;
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: server.url,
    waId,
    settled: server.settled,
  });
  await buyMotorUntilPaying(chat, 'BDR 5511', 'own');
  const paid = await pushed(chat, /^Paid ZMW/);
  const policy = /policy number is (MTR-\S+)\./.exec(paid.text)?.[1] ?? '';
  const found = / to (\d{2})\/(\d{2})\/(\d{4})/.exec(paid.text);
  const end = `${found?.[3]}-${found?.[2]}-${found?.[1]}`;
  expect(policy).not.toBe('');

  // 13 days before, the customer wrote an hour ago: the reminder is an ordinary message.
  setLusakaTime(end, 13, 9);
  let from = chat.sent().length;
  expect((await app.server.reminders.scan()).sent).toBe(1);
  const inside = await pushed(chat, /^Motor cover MTR-/, from);
  expect(inside.text).toContain(`Motor cover ${policy} (Motor Third Party for BDR 5511)`);
  expect(inside.choices.map((choice) => choice.title)).toEqual(['Renew now', 'Stop reminders']);

  // 3 days before, their last message is over 24 hours old: only a template may reach them.
  await advanceRedisTtls(app.redis, app.prefix, 25 * HOUR);
  setLusakaTime(end, 3, 9);
  from = chat.sent().length;
  expect((await app.server.reminders.scan()).sent).toBe(1);
  const sent = chat.sent().slice(from);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({
    type: 'template',
    template: { name: 'insurechat_renewal_reminder', language: { code: 'en' } },
  });
  const template = sent[0]?.template as {
    components: { type: string; parameters: { parameter_name: string; text: string }[] }[];
  };
  const parameters = template.components[0]?.parameters ?? [];
  expect(parameters.map((parameter) => parameter.parameter_name)).toEqual([
    'policy_number',
    'cover',
    'end_date',
  ]);
  expect(parameters[0]?.text).toBe(policy);
  expect(parameters[1]?.text).toBe('Motor Third Party for BDR 5511');
  expect(parameters[2]?.text).toBe(`${found?.[1]}/${found?.[2]}/${found?.[3]}`);
  // WhatsApp refuses template parameters with line breaks or tabs.
  for (const parameter of parameters) expect(parameter.text).not.toMatch(/[\n\t]/);

  // Their answer reopens the window: the reminder follows with its buttons, as ordinary messages.
  const menu = await chat.text('Renew');
  expect(menu.messages.every((message) => message.type !== 'template')).toBe(true);
  expect(menu.text).toContain(`Motor cover ${policy} (Motor Third Party for BDR 5511) ends on`);
  expect(menu.choices.map((choice) => choice.title)).toEqual(['Renew now', 'Stop reminders']);
  // The reminder's "Renew now", tapped after all that: the menu opens and takes it at once.
  const renew = await chat.tap(inside, /Renew now/);
  expect(renew.text).toMatch(new RegExp(`^Renew ${policy} .*Pay with:`, 's'));
}, 90_000);
