import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import { daysAgo } from '../../flows/fixtures.js';
import { startTelegramFileApi, type TelegramFileApi } from '../../server/telegram-file-api.js';
import { type Sent, telegramChat } from '../../server/telegram-webhook-chat.js';
import { sandboxOf, startTestServer, type TestServer } from '../../server/test-server.js';
import { tinyJpeg } from '../../support/document-bytes.js';
import { eventually } from '../../support/eventually.js';
import { freePort } from './test-support.js';

/*
 * Issue 40, media as people send it, on Telegram through the real server (webhook mode; the Bot
 * API is telegram-test-api with getFile and downloads in front of it): an album of three photos
 * comes as three updates sharing one media_group_id, posted together. All three reach the claim
 * (none is refused because the step moved on after the first), and an oversized part is refused
 * in the customer's words without losing the others.
 */

const SECRET = 'photo-albums-telegram';
const MB = 1024 * 1024;
const TOO_LARGE = 'That file is too large: each file may be at most 20 MB.';
const { creditLife } = DEMO_BOOK;

let emulator: TelegramServer;
let fileApi: TelegramFileApi;
let app: TestServer;
let local: string;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  fileApi = await startTelegramFileApi(emulator.config.apiURL);
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '404041:photo-albums',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: fileApi.url,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await fileApi?.close();
  await emulator?.stop();
});

/** A chat at the claim's "send a photo" step, the claim's number, and its record at the insurer. */
async function atPhotoStep(chatId: number) {
  const chat = telegramChat({ emulator, serverUrl: local, secret: SECRET, chatId });
  let screen = await chat.command('/start');
  screen = await chat.tap(screen, /my cover/i);
  screen = await chat.shareOwnContact(`+${creditLife.borrower.phoneNumber.replace(/^\+/, '')}`);
  screen = await chat.tap(screen, new RegExp(creditLife.inGrace.loan.reference));
  screen = await chat.tap(screen, /Make a claim/);
  screen = await chat.tap(screen, /Retrenchment/);
  screen = await chat.type(daysAgo(2).typed);
  screen = await chat.type('Retrenched when the branch closed');
  await chat.tap(screen, /Submit/);
  const intimated = () =>
    chat.sent().find((sent) => /^Claim CLC-\d+: claim received/.test(sent.message.text ?? ''));
  await eventually('the claim was shown', () => intimated() !== undefined);
  const number = /CLC-\d+/.exec(intimated()?.message.text ?? '')?.[0] ?? '';
  await chat.tap(intimated() as Sent, /Add documents/);
  await eventually('the photo was asked for', () =>
    chat
      .sent()
      .some((sent) =>
        (sent.message.text ?? '').includes(`Send a photo or file for claim ${number}`),
      ),
  );
  const record = () =>
    [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  return { chat, number, record };
}

/** One part of an album: a photo message with the album's media_group_id. */
const part = (group: string, fileId: string, size: number) => ({
  media_group_id: group,
  photo: [{ file_id: fileId, file_unique_id: `u-${fileId}`, width: 1, height: 1, file_size: size }],
});

it('keeps every photo of a three-photo album, shows the step once for it, and refuses an oversized part of the next album without losing the other', async () => {
  const { chat, record } = await atPhotoStep(9_400_101);
  const before = chat.sent().length;
  const parts = [1, 2, 3].map((n) => {
    const bytes = Buffer.concat([tinyJpeg(), Buffer.from([n])]);
    fileApi.addFile(`album-${n}`, bytes);
    return part('album-1', `album-${n}`, bytes.length);
  });
  await Promise.all(parts.map((fields) => chat.postFile(fields)));
  await eventually('all three photos are on the claim', () => record()?.documents.length === 3);
  expect(record()?.status).toBe('Documented');
  expect(new Set(record()?.documents.map((d) => d.name))).toEqual(
    new Set(['album-1', 'album-2', 'album-3'].map((name) => `${name}.jpg`)),
  );
  const answers = () =>
    chat
      .sent()
      .slice(before)
      .map((sent) => sent.message.text ?? '');
  await eventually('the step counts three', () =>
    answers().some((text) => /Documents: 3\./.test(text)),
  );
  expect(answers().join('\n')).not.toMatch(/do not need a photo|Sorry/);
  // One step for the album, not one per photo (its parts were in together).
  expect(answers().filter((text) => /Documents: \d+\./.test(text))).toHaveLength(1);

  // Another album from the step after the first, one part over 20 MB: refused in the customer's
  // words (Telegram says the size first: it is never downloaded), the other part kept.
  const small = Buffer.concat([tinyJpeg(), Buffer.from([9])]);
  fileApi.addFile('mixed-1', small);
  await Promise.all([
    chat.postFile(part('album-2', 'mixed-1', small.length)),
    chat.postFile(part('album-2', 'mixed-big', 20 * MB + 1)),
  ]);
  await eventually('the fourth photo is on the claim', () => record()?.documents.length === 4);
  await eventually('the size refusal', () =>
    chat.sent().some((sent) => sent.message.text === TOO_LARGE),
  );
  expect(fileApi.downloads('mixed-big')).toBe(0);
  expect(record()?.documents.at(-1)?.name).toBe('mixed-1.jpg');
}, 60_000);
