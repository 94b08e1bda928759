import { expect, it } from 'vitest';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import { jpegOfSize, served } from '../../claim-documents/documents-page.js';
import { daysAgo } from '../../flows/fixtures.js';
import { sandboxOf } from '../../server/test-server.js';
import { tinyJpeg } from '../../support/document-bytes.js';
import { eventually } from '../../support/eventually.js';
import { manualClock } from '../../support/manual-clock.js';
import { type Screen, screenOf, useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * Issue 40, media as people send it: several photos picked at once arrive as one message each,
 * in one webhook POST or in several within a second. Every one reaches the claim (queued per
 * conversation, never refused), and the customer is not shown the next step once per photo.
 */

const { creditLife } = DEMO_BOOK;
const MB = 1024 * 1024;
const DAY_MS = 86_400_000;
const TOO_LARGE = 'That file is too large: each file may be at most 20 MB.';
// The file store's clock: the links the insurer holds are read a month on.
const fileClock = manualClock();
const server = useWhatsAppServer({}, { fileClock: fileClock.now });
const waId = creditLife.borrower.phoneNumber.replace(/^\+/, '');
const photoBytes = (n: number) => Buffer.concat([tinyJpeg(), Buffer.from([n])]);

/** A chat at the claim's "send a photo" step, with the claim's number. */
async function atPhotoStep() {
  const { graph, app } = server;
  const chat = whatsappChat({ graph, serverUrl: server.url, waId, settled: server.settled });
  let screen = await chat.text('Hi');
  screen = await chat.tap(screen, /my cover/i);
  screen = await chat.tap(screen, new RegExp(creditLife.inGrace.loan.reference));
  screen = await chat.tap(screen, /Make a claim/);
  screen = await chat.tap(screen, /Retrenchment/);
  screen = await chat.text(daysAgo(2).typed);
  screen = await chat.text('Retrenched when the branch closed');
  screen = await chat.tap(screen, /Submit/);
  const number = /CLC-\d+/.exec(screen.text)?.[0] ?? '';
  expect(number).not.toBe('');
  screen = await chat.tap(screen, /Add documents/);
  expect(screen.text).toMatch(`Send a photo or file for claim ${number}`);
  const record = () =>
    [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  return { chat, number, record };
}

const image = (id: string) => ({
  type: 'image',
  image: { id, mime_type: 'image/jpeg', sha256: 'x' },
});

/** What the customer was shown after the photos: never a refusal, ending on the third. */
function expectOneStepPerBurst(screen: Screen, count: number) {
  expect(screen.text).not.toMatch(/do not need a photo/i);
  expect(screen.text).not.toMatch(/Sorry/);
  // The last answer counts every photo and still takes more.
  const counts = [...screen.text.matchAll(/Documents: (\d+)\./g)].map((m) => Number(m[1]));
  expect(counts.at(-1)).toBe(count);
  expect(screen.choices.map((c) => c.title)).toEqual(
    expect.arrayContaining([expect.stringMatching(/Add another/)]),
  );
}

it('keeps three photos sent in one POST, three more in three POSTs within a second, and the one under the limit of two: each reaches the insurer named, its link served a month on', async () => {
  const { chat, record } = await atPhotoStep();
  const { graph } = server;
  for (const n of [1, 2, 3, 4, 5, 6]) graph.addMedia(`burst-${n}`, photoBytes(n), 'image/jpeg');
  let before = chat.sent().length;
  const at = String(Math.floor(Date.now() / 1000));
  const body = chat.envelope({
    contacts: [{ profile: { name: 'Mwila' }, wa_id: waId }],
    messages: [1, 2, 3].map((n) => ({
      from: waId,
      id: `wamid.burst.${n}`,
      timestamp: at,
      ...image(`burst-${n}`),
    })),
  });
  expect((await chat.post(body)).status).toBe(200);
  expectOneStepPerBurst(screenOf(chat.sent().slice(before)), 3);
  await eventually('three photos are on the claim', () => record()?.documents.length === 3);
  expect(record()?.status).toBe('Documented');

  // Straight on, from the step after the first three: Meta posts each message on its own, one
  // after the other, and none waits for a turn.
  before = chat.sent().length;
  for (const n of [4, 5, 6]) {
    const response = await chat.postAlone(chat.messageBody(image(`burst-${n}`)));
    expect(response.status).toBe(200);
  }
  await server.settled();
  expectOneStepPerBurst(screenOf(chat.sent().slice(before)), 6);
  await eventually('all six photos are on the claim', () => record()?.documents.length === 6);
  expect(record()?.documents.map((d) => d.name)).toEqual(
    [1, 2, 3, 4, 5, 6].map((n) => `burst-${n}.jpg`),
  );

  // Two more at once, one over the limit: refused in words naming it, the step shown again,
  // and the other kept. Nothing else is lost and nothing says "Sorry".
  graph.addMedia('burst-7', photoBytes(7), 'image/jpeg');
  graph.addMedia('burst-big', jpegOfSize(tinyJpeg(), 20 * MB + 1), 'image/jpeg');
  before = chat.sent().length;
  for (const id of ['burst-7', 'burst-big']) {
    expect((await chat.postAlone(chat.messageBody(image(id)))).status).toBe(200);
  }
  await server.settled();
  const refused = screenOf(chat.sent().slice(before));
  expect(refused.text).toContain(TOO_LARGE);
  expect(refused.text).toMatch(/Documents: 7\./);
  expect(refused.text).not.toMatch(/Sorry/);
  expect(
    record()
      ?.documents.map((d) => d.name)
      .at(-1),
  ).toBe('burst-7.jpg');
  expect(record()?.documents).toHaveLength(7);

  // Each document reaches the insurer with its name and a link with no expiry of its own: it
  // lives as long as the file is kept for the claim (while the insurer reports the claim, and a
  // year after it stops). A month on, every link still serves its photo.
  const documents = record()?.documents ?? [];
  expect(documents.every((d) => !new URL(d.url).searchParams.has('exp'))).toBe(true);
  fileClock.advance(30 * DAY_MS);
  for (const [n, document] of documents.entries()) {
    const file = await served(document.url);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(photoBytes(n + 1))).toBe(true);
  }
}, 60_000);

it('takes photos sent straight on a new claim’s screen, without tapping "Add documents" first', async () => {
  const { graph, app } = server;
  const member = DEMO_BOOK.groupLife.member.phoneNumber.replace(/^\+/, '');
  const chat = whatsappChat({
    graph,
    serverUrl: server.url,
    waId: member,
    settled: server.settled,
  });
  let screen = await chat.text('Hi');
  screen = await chat.tap(screen, /my cover/i);
  screen = await chat.tap(screen, new RegExp(DEMO_BOOK.groupLife.policyNumber));
  screen = await chat.tap(screen, /Make a claim/);
  screen = await chat.text(daysAgo(1).typed);
  screen = await chat.text('Died after an illness');
  screen = await chat.tap(screen, /Submit/);
  const number = /GLC-\d+/.exec(screen.text)?.[0] ?? '';
  expect(number).not.toBe('');
  // The screen offers "Add documents"; the member sends two photos instead, in one POST.
  expect(screen.choices.map((c) => c.title)).toContain('Add documents');
  for (const n of [1, 2]) graph.addMedia(`straight-${n}`, photoBytes(10 + n), 'image/jpeg');
  const before = chat.sent().length;
  const at = String(Math.floor(Date.now() / 1000));
  const body = chat.envelope({
    contacts: [{ profile: { name: 'Bupe' }, wa_id: member }],
    messages: [1, 2].map((n) => ({
      from: member,
      id: `wamid.straight.${n}`,
      timestamp: at,
      ...image(`straight-${n}`),
    })),
  });
  expect((await chat.post(body)).status).toBe(200);
  expectOneStepPerBurst(screenOf(chat.sent().slice(before)), 2);
  const record = () =>
    [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  await eventually('both photos are on the claim', () => record()?.documents.length === 2);
}, 60_000);
