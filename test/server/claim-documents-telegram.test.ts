import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { telegramChat } from './telegram-webhook-chat.js';
import { sandboxOf, startTestServer, type TestServer } from './test-server.js';

/*
 * A photo sent in a Telegram chat reaches the insurer the way a /d/ page's file does: the
 * claim's document is insurechat's kept link (no expiry) with the file's name, and it serves the
 * photo. The Bot API emulator knows no files: a small front answers getFile and the download
 * itself and passes every other call through.
 */

const SECRET = 'claim-documents-telegram-secret';
const TOKEN = '404040:claim-documents';
const PHOTO = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 7, 7, 7]);
const { creditLife } = DEMO_BOOK;

let emulator: TelegramServer;
let front: Server;
let app: TestServer;
let local: string;

/** The emulator behind a front that serves one photo file (`photos/file_7.jpg`). */
async function botApiWithFiles(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request, response) => {
    const url = request.url ?? '/';
    if (url.startsWith(`/bot${TOKEN}/getFile`)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      const file_path = 'photos/file_7.jpg';
      const result = {
        file_id: 'photo-7',
        file_unique_id: 'u7',
        file_size: PHOTO.length,
        file_path,
      };
      response.end(JSON.stringify({ ok: true, result }));
      return;
    }
    if (url === `/file/bot${TOKEN}/photos/file_7.jpg`) {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(PHOTO);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = { ...request.headers } as Record<string, string>;
    delete headers.host;
    delete headers['content-length'];
    const forwarded = await fetch(`${target}${url}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    response.writeHead(forwarded.status, {
      'content-type': forwarded.headers.get('content-type') ?? 'application/json',
    });
    response.end(Buffer.from(await forwarded.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  const withFiles = await botApiWithFiles(emulator.config.apiURL.replace(/\/+$/, ''));
  front = withFiles.server;
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: withFiles.url,
    // Webhook mode: Telegram would reach the server there; the test posts updates directly.
    PUBLIC_URL: 'https://insurechat.example.test',
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => front?.close(resolve));
  await emulator?.stop();
});

it('posts a photo sent in the chat to the claim as a kept link with its name', async () => {
  const chatId = 9_400_001;
  const chat = telegramChat({ emulator, serverUrl: local, secret: SECRET, chatId });
  let screen = await chat.command('/start');
  screen = await chat.tap(screen, /my cover/i);
  screen = await chat.shareOwnContact(`+${creditLife.borrower.phoneNumber}`);
  screen = await chat.tap(screen, new RegExp(creditLife.inGrace.loan.reference));
  screen = await chat.tap(screen, /Make a claim/);
  screen = await chat.tap(screen, /Retrenchment/);
  const [year, month, day] = new Date(Date.now() - 2 * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  screen = await chat.type(`${day}/${month}/${year}`);
  screen = await chat.type('Retrenched when the branch closed');
  await chat.tap(screen, /Submit/);
  const shown = () =>
    chat.sent().find((sent) => /^Claim CLC-\d+: claim received/.test(sent.message.text ?? ''));
  await eventually('the claim was shown', () => shown() !== undefined);
  const number = /CLC-\d+/.exec(shown()?.message.text ?? '')?.[0] ?? '';
  // Screens are edited in place: each is found by what it says, not by its position.
  const saying = (text: RegExp) => () =>
    chat.sent().some((sent) => text.test(sent.message.text ?? ''));
  await chat.tap(shown() ?? screen, /Add documents/);
  await eventually(
    'the photo was asked for',
    saying(new RegExp(`Send a photo or file for claim ${number}`)),
  );
  const photo = [
    { file_id: 'photo-7', file_unique_id: 'u7', width: 800, height: 600, file_size: PHOTO.length },
  ];
  await chat.photo(photo);
  await eventually('the photo was taken', saying(/documents received\. Documents: 1\./));

  // What the insurer recorded: our kept link, with the file's name, serving the photo.
  const record = [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  expect(record?.status).toBe('Documented');
  const [document] = record?.documents ?? [];
  expect(document?.name).toBe('file_7.jpg');
  const url = new URL(document?.url ?? 'about:blank');
  expect(url.origin).toBe('https://insurechat.example.test');
  expect(url.searchParams.has('exp')).toBe(false);
  const served = await fetch(`${local}${url.pathname}${url.search}`);
  expect(Buffer.from(await served.arrayBuffer())).toEqual(PHOTO);
}, 60_000);

it("holds a relative's photo on a death claim they reported: the claim stays Intimated at the insurer and the chat says staff check it first", async () => {
  const chatId = 9_400_002;
  const chat = telegramChat({ emulator, serverUrl: local, secret: SECRET, chatId });
  const { groupLife } = DEMO_BOOK;
  let screen = await chat.command('/start');
  screen = await chat.tap(screen, /claims/i);
  screen = await chat.tap(screen, /death/i);
  // No contact shared yet: the relative's own phone comes first.
  screen = await chat.shareOwnContact('+260955400002');
  screen = await chat.type(groupLife.policyNumber);
  screen = await chat.type(groupLife.member.nrcNumber);
  screen = await chat.type('01/11/2026');
  screen = await chat.type('Illness');
  await chat.tap(screen, /Submit/);
  const shown = () =>
    chat.sent().find((sent) => /^Claim GLC-\d+: claim received/.test(sent.message.text ?? ''));
  await eventually('the claim was shown', () => shown() !== undefined);
  const number = /GLC-\d+/.exec(shown()?.message.text ?? '')?.[0] ?? '';
  const saying = (text: RegExp) => () =>
    chat.sent().some((sent) => text.test(sent.message.text ?? ''));
  await chat.tap(shown() ?? screen, /Add documents/);
  await eventually('the photo was asked for', saying(/Send a photo or file for claim/));
  await chat.photo([
    { file_id: 'photo-7', file_unique_id: 'u7', width: 800, height: 600, file_size: PHOTO.length },
  ]);
  await eventually('the photo was taken', saying(/Documents: 1\./));
  expect(
    chat.sent().find((sent) => /Documents: 1\./.test(sent.message.text ?? ''))?.message.text,
  ).toContain('Your documents are kept');
  const record = [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  expect(record?.status).toBe('Intimated');
  expect(record?.documents ?? []).toHaveLength(0);
}, 60_000);
