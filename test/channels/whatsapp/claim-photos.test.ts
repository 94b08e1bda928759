import { expect, it } from 'vitest';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import { daysAgo } from '../../flows/fixtures.js';
import { sandboxOf } from '../../server/test-server.js';
import { eventually } from '../../support/eventually.js';
import { useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * A claim on WhatsApp with the README's demo borrower: My cover opens without asking for the
 * phone (the sender's number is verified), and two photos sent in the chat reach the insurer
 * through the media endpoint and move the claim to Documented.
 */

const { creditLife } = DEMO_BOOK;
const server = useWhatsAppServer();

it('makes a claim from My cover and two photos sent in the chat move it to Documented', async () => {
  const waId = creditLife.borrower.phoneNumber.replace(/^\+/, '');
  const { graph, app } = server;
  const chat = whatsappChat({ graph, serverUrl: server.url, waId, settled: server.settled });
  let screen = await chat.text('Hi');
  // My cover opens on the sender's number: no contact to share.
  screen = await chat.tap(screen, /my cover/i);
  expect(screen.text).toMatch(/^Your cover/);
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
  graph.addMedia('media-1', new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), 'image/jpeg');
  graph.addMedia('media-2', new Uint8Array([0xff, 0xd8, 0xff, 4, 5, 6]), 'image/jpeg');
  screen = await chat.photo('media-1');
  expect(screen.text).toMatch(/documents received\. Documents: 1\./);
  screen = await chat.tap(screen, /Add another/);
  screen = await chat.photo('media-2');
  expect(screen.text).toMatch(/documents received\. Documents: 2\./);
  await chat.tap(screen, /End/);
  const record = () =>
    [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  await eventually('the claim is Documented', () => record()?.status === 'Documented');
  expect(record()).toMatchObject({ status: 'Documented', claimType: 'Retrenchment' });
  // The insurer's documents are the photos the customer sent, served from our signed URLs.
  const documents = record()?.documents ?? [];
  expect(documents).toHaveLength(2);
  const bytes = await Promise.all(
    documents.map(async (doc) => new Uint8Array(await (await fetch(doc.url)).arrayBuffer())),
  );
  expect(bytes.map((b) => b.at(-1))).toEqual([3, 6]);
  // Posted as the /d/ page's are: each file's kept link (no expiry) with its name.
  expect(documents.map((doc) => doc.name)).toEqual(['media-1.jpg', 'media-2.jpg']);
  expect(documents.map((doc) => new URL(doc.url).searchParams.has('exp'))).toEqual([false, false]);
}, 60_000);
