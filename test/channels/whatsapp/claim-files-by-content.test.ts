import { expect, it } from 'vitest';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import {
  documentsLink,
  FILES_SECRET,
  jpegOfSize,
  sendOnPage,
  served,
} from '../../claim-documents/documents-page.js';
import { daysAgo } from '../../flows/fixtures.js';
import { sandboxOf } from '../../server/test-server.js';
import {
  htmlPage,
  svgImage,
  tinyJpeg,
  tinyPdf,
  tinyPng,
  windowsExecutable,
} from '../../support/document-bytes.js';
import { useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * Issue 37, files by content, on WhatsApp through the real server: a claim's files are taken by
 * their bytes (an executable sent as a JPEG, HTML as a PDF and an SVG are refused, as is a file
 * over 20 MB) with the docs' words and the step kept; a 12 MB photo is taken; a claim's bytes
 * are counted with the documents page's, so the claim is full whichever way its files came.
 */

const MB = 1024 * 1024;
const REFUSED_TYPE = 'Only photos (JPEG, PNG, WebP, HEIC) and PDF files can be sent.';
const TOO_LARGE = 'That file is too large: each file may be at most 20 MB.';
const CLAIM_FULL =
  'This claim cannot take that file: a claim takes at most 10 files and 13 MB in all.';
const { creditLife } = DEMO_BOOK;
const server = useWhatsAppServer({
  FILES_SIGNING_SECRET: FILES_SECRET,
  CLAIM_MAX_BYTES: String(13 * MB),
});

it('refuses disguised and oversized files, takes photos and PDFs by their bytes, and counts the claim with the documents page', async () => {
  const waId = creditLife.borrower.phoneNumber.replace(/^\+/, '');
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
  const asking = `Send a photo or file for claim ${number}`;
  expect(screen.text).toMatch(asking);
  const record = () =>
    [...sandboxOf(app).state.claims.values()].find((c) => c.claimNumber === number);
  const document = (id: string, filename: string, mime: string) =>
    chat.send({ type: 'document', document: { id, filename, mime_type: mime, sha256: 'x' } });

  // Refused: the words the docs give, the step asked again, nothing at the insurer.
  graph.addMedia('exe', windowsExecutable(), 'image/jpeg');
  graph.addMedia('html', htmlPage(), 'application/pdf');
  graph.addMedia('svg', svgImage(), 'image/svg+xml');
  graph.addMedia('big', jpegOfSize(tinyJpeg(), 20 * MB + 1), 'image/jpeg');
  for (const [id, name, mime] of [
    ['exe', 'invoice.jpg', 'image/jpeg'],
    ['html', 'claim.pdf', 'application/pdf'],
    ['svg', 'photo.svg', 'image/svg+xml'],
  ] as const) {
    screen = await document(id, name, mime);
    expect(screen.text).toContain(REFUSED_TYPE);
    expect(screen.text).toContain(asking);
  }
  screen = await chat.photo('big');
  expect(screen.text).toContain(TOO_LARGE);
  expect(screen.text).toContain(asking);
  expect(record()?.documents).toEqual([]);

  // Taken by their bytes: a photo, a PNG sent as a file, a PDF named as a JPEG.
  const taken = [tinyJpeg(), tinyPng(), tinyPdf()];
  graph.addMedia('jpeg', taken[0] as Buffer, 'image/jpeg');
  graph.addMedia('png', taken[1] as Buffer, 'application/octet-stream');
  graph.addMedia('pdf', taken[2] as Buffer, 'image/jpeg');
  screen = await chat.photo('jpeg');
  expect(screen.text).toMatch(/documents received\. Documents: 1\./);
  screen = await chat.tap(screen, /Add another/);
  screen = await document('png', 'scan', 'application/octet-stream');
  expect(screen.text).toMatch(/Documents: 2\./);
  screen = await chat.tap(screen, /Add another/);
  screen = await document('pdf', 'invoice.jpg', 'image/jpeg');
  expect(screen.text).toMatch(/Documents: 3\./);
  const documents = record()?.documents ?? [];
  expect(documents).toHaveLength(3);
  // Each kept under the type and extension its bytes show (a photo is named by its media id).
  const stored = [
    ['image/jpeg', 'jpeg.jpg'],
    ['image/png', 'scan.png'],
    ['application/pdf', 'invoice.pdf'],
  ];
  for (const [n, [type, name]] of stored.entries()) {
    const file = await served(documents[n]?.url ?? '');
    expect(file.bytes.equals(taken[n] as Buffer)).toBe(true);
    expect(file.headers.get('content-type')).toBe(type);
    expect(file.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="${name}"; filename\\*=UTF-8''${name}$`),
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  }

  // A 12 MB photo, under the 20 MB the docs state, is taken (it once got "Sorry").
  const twelve = jpegOfSize(tinyJpeg(), 12 * MB);
  graph.addMedia('twelve', twelve, 'image/jpeg');
  screen = await chat.tap(screen, /Add another/);
  screen = await chat.photo('twelve');
  expect(screen.text).toMatch(/Documents: 4\./);

  // The claim's room left, over every channel: one byte more is refused in the chat...
  const left = 13 * MB - [...taken, twelve].reduce((sum, bytes) => sum + bytes.length, 0);
  screen = await chat.tap(screen, /Add another/);
  graph.addMedia('over', jpegOfSize(tinyJpeg(), left + 1), 'image/jpeg');
  screen = await chat.photo('over');
  expect(screen.text).toContain(CLAIM_FULL);
  expect(record()?.documents).toHaveLength(4);
  // ...the exact room is taken on the documents page, and then the page is refused too.
  const claim = { line: 'credit-life' as const, claimId: record()?.id ?? '' };
  const link = documentsLink(server.url, claim);
  const fits = await sendOnPage(link, jpegOfSize(tinyJpeg(), left), {
    type: 'image/jpeg',
    name: 'last.jpg',
  });
  expect(fits.status).toBe(200);
  const full = await sendOnPage(link, tinyPng(), { type: 'image/png', name: 'more.png' });
  expect(full.status).toBe(409);
  expect(full.body.message).toBe(CLAIM_FULL);
  expect(record()?.documents).toHaveLength(5);
}, 60_000);
