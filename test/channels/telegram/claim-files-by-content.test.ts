import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import {
  documentsLink,
  FILES_SECRET,
  jpegOfSize,
  sendOnPage,
  served,
} from '../../claim-documents/documents-page.js';
import { startTelegramFileApi, type TelegramFileApi } from '../../server/telegram-file-api.js';
import { type Sent, telegramChat } from '../../server/telegram-webhook-chat.js';
import { sandboxOf, startTestServer, type TestServer } from '../../server/test-server.js';
import {
  htmlPage,
  svgImage,
  tinyJpeg,
  tinyPdf,
  tinyPng,
  windowsExecutable,
} from '../../support/document-bytes.js';
import { eventually } from '../../support/eventually.js';
import { freePort } from './test-support.js';

/*
 * Issue 37, files by content, on Telegram through the real server (webhook mode; the Bot API is
 * telegram-test-api, with getFile and file downloads in front of it): a claim's files are taken
 * by their bytes, refused with the docs' words otherwise, a file over 20 MB is refused before
 * it is downloaded, and the claim's room is shared with the documents page.
 */

const SECRET = 'files-by-content-telegram';
const MB = 1024 * 1024;
const REFUSED_TYPE = 'Only photos (JPEG, PNG, WebP, HEIC) and PDF files can be sent.';
const TOO_LARGE = 'That file is too large: each file may be at most 20 MB.';
const CLAIM_FULL =
  'This claim cannot take that file: a claim takes at most 10 files and 1 MB in all.';
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
    TELEGRAM_BOT_TOKEN: '373737:files-by-content',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: fileApi.url,
    FILES_SIGNING_SECRET: FILES_SECRET,
    CLAIM_MAX_BYTES: String(MB),
    // Webhook mode (polling without it); the signed file URLs start with it.
    PUBLIC_URL: 'https://insurechat.example.test',
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await fileApi?.close();
  await emulator?.stop();
});

const typedDaysAgo = (days: number) => {
  const [year, month, day] = new Date(Date.now() - days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
};

it('refuses disguised and oversized files, takes photos and PDFs by their bytes, and counts the claim with the documents page', async () => {
  const chatId = 9_370_001;
  const chat = telegramChat({ emulator, serverUrl: local, secret: SECRET, chatId });
  let screen = await chat.command('/start');
  screen = await chat.tap(screen, /my cover/i);
  screen = await chat.shareOwnContact(`+${creditLife.borrower.phoneNumber.replace(/^\+/, '')}`);
  screen = await chat.tap(screen, new RegExp(creditLife.inGrace.loan.reference));
  screen = await chat.tap(screen, /Make a claim/);
  screen = await chat.tap(screen, /Retrenchment/);
  screen = await chat.type(typedDaysAgo(2));
  screen = await chat.type('Retrenched when the branch closed');
  await chat.tap(screen, /Submit/);
  const intimated = () =>
    chat.sent().find((sent) => /^Claim CLC-\d+: claim received/.test(sent.message.text ?? ''));
  await eventually('the claim was shown', () => intimated() !== undefined);
  const number = /CLC-\d+/.exec(intimated()?.message.text ?? '')?.[0] ?? '';
  // Messages are found by what they say: the claim's confirmation may come after any of them.
  const shown = async (pattern: RegExp): Promise<Sent> => {
    await eventually(`a message ${pattern}`, () =>
      chat.sent().some((sent) => pattern.test(sent.message.text ?? '')),
    );
    return chat.sent().find((sent) => pattern.test(sent.message.text ?? '')) as Sent;
  };
  await chat.tap(intimated() as Sent, /Add documents/);
  await shown(new RegExp(`Send a photo or file for claim ${number}`));
  const record = () =>
    [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  const said = (text: string) => chat.sent().filter((sent) => sent.message.text === text).length;
  let fileNumber = 0;
  const document = (fileId: string, bytes: Buffer, fileName: string, mimeType: string) => {
    fileNumber += 1;
    fileApi.addFile(fileId, bytes);
    return chat.sendFile({
      document: {
        file_id: fileId,
        file_unique_id: `u${fileNumber}`,
        file_name: fileName,
        mime_type: mimeType,
        file_size: bytes.length,
      },
    });
  };

  // Refused: the words the docs give, one message each, nothing at the insurer.
  await document('exe', windowsExecutable(), 'invoice.jpg', 'image/jpeg');
  await document('html', htmlPage(), 'claim.pdf', 'application/pdf');
  await document('svg', svgImage(), 'photo.svg', 'image/svg+xml');
  await eventually('three refusals', () => said(REFUSED_TYPE) === 3);
  // Telegram says a file's size first: one over 20 MB is refused and never downloaded.
  await chat.sendFile({
    document: {
      file_id: 'big',
      file_unique_id: 'ubig',
      file_name: 'big.jpg',
      file_size: 20 * MB + 1,
    },
  });
  await eventually('the size refusal', () => said(TOO_LARGE) === 1);
  expect(fileApi.downloads('big')).toBe(0);
  expect(record()?.documents).toEqual([]);

  // Taken by their bytes: a photo, a PNG sent as a file, a PDF named as a JPEG.
  const taken = [tinyJpeg(), tinyPng(), tinyPdf()];
  fileApi.addFile('photo', taken[0] as Buffer);
  await chat.sendFile({
    photo: [{ file_id: 'photo', file_unique_id: 'uphoto', width: 1, height: 1, file_size: 125 }],
  });
  await chat.tap(await shown(/documents received\. Documents: 1\./), /Add another/);
  await document('png', taken[1] as Buffer, 'scan', 'application/octet-stream');
  await chat.tap(await shown(/documents received\. Documents: 2\./), /Add another/);
  await document('pdf', taken[2] as Buffer, 'invoice.jpg', 'image/jpeg');
  await chat.tap(await shown(/documents received\. Documents: 3\./), /Add another/);
  const documents = record()?.documents ?? [];
  expect(documents).toHaveLength(3);
  const stored = [
    ['image/jpeg', 'photo.jpg'],
    ['image/png', 'scan.png'],
    ['application/pdf', 'invoice.pdf'],
  ];
  for (const [n, [type, name]] of stored.entries()) {
    // The insurer's URL is PUBLIC_URL's: fetched here from the server itself.
    const url = new URL(documents[n]?.url ?? '');
    expect(url.origin).toBe('https://insurechat.example.test');
    const file = await served(`${local}${url.pathname}${url.search}`);
    expect(file.bytes.equals(taken[n] as Buffer)).toBe(true);
    expect(file.headers.get('content-type')).toBe(type);
    expect(file.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="${name}"; filename\\*=UTF-8''${name}$`),
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  }

  // The claim's room left, over every channel: one byte more is refused in the chat...
  const left = MB - taken.reduce((sum, bytes) => sum + bytes.length, 0);
  await document('over', jpegOfSize(tinyJpeg(), left + 1), 'over.jpg', 'image/jpeg');
  await eventually('the claim-full refusal', () => said(CLAIM_FULL) === 1);
  expect(record()?.documents).toHaveLength(3);
  // ...the exact room is taken on the documents page, and then the page is refused too.
  const link = documentsLink(local, { line: 'credit-life', claimId: record()?.id ?? '' });
  const fits = await sendOnPage(link, jpegOfSize(tinyJpeg(), left), {
    type: 'image/jpeg',
    name: 'last.jpg',
  });
  expect(fits.status).toBe(200);
  const full = await sendOnPage(link, tinyPng(), { type: 'image/png', name: 'more.png' });
  expect(full.status).toBe(409);
  expect(full.body.message).toBe(CLAIM_FULL);
  expect(record()?.documents).toHaveLength(4);
}, 60_000);
