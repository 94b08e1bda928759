import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sandboxOf,
  startTestServer,
  startTwinServers,
  type TestServer,
} from '../server/test-server.js';
import {
  htmlPage,
  svgImage,
  tinyJpeg,
  tinyPdf,
  tinyPng,
  windowsExecutable,
} from '../support/document-bytes.js';
import {
  documentsAt,
  documentsLink,
  FILES_SECRET,
  jpegOfSize,
  newClaim,
  sendOnPage,
  served,
} from './documents-page.js';

/*
 * Issue 37, files by content, on the documents page (`/d/`) of a real server: what a file is comes
 * from its bytes, never from the type or name it was sent with; every stored file is served as a
 * download that cannot render on the bot's origin; a claim takes at most CLAIM_MAX_FILES files
 * and CLAIM_MAX_BYTES bytes; a forged link is refused before its body is read.
 */

// Read as prose: a sentence may wrap over lines.
const PAGE = readFileSync(
  new URL('../../docs/cover-and-claims.md', import.meta.url),
  'utf8',
).replace(/\s+/g, ' ');
/** The refusals, as docs/cover-and-claims.md states them (and the server must say them word for word). */
const REFUSED_TYPE = 'Only photos (JPEG, PNG, WebP, HEIC) and PDF files can be sent.';
const TOO_LARGE = 'That file is too large: each file may be at most 20 MB.';
const claimFull = (files: number) =>
  `This claim cannot take that file: a claim takes at most ${files} files and 1 MB in all.`;
const MB = 1024 * 1024;

it('states every refusal in docs/cover-and-claims.md word for word', () => {
  expect(PAGE).toContain(REFUSED_TYPE);
  expect(PAGE).toContain(TOO_LARGE);
  // With the defaults the page gives: 10 files and 50 MB a claim.
  expect(PAGE).toContain(claimFull(10).replace('1 MB', '50 MB'));
});

describe('the documents page of one server', () => {
  let app: TestServer;
  let base: string;
  beforeAll(async () => {
    app = await startTestServer({
      FILES_SIGNING_SECRET: FILES_SECRET,
      CLAIM_MAX_FILES: '4',
      CLAIM_MAX_BYTES: String(MB),
    });
    base = `http://127.0.0.1:${app.server.info.bound?.port}`;
  }, 60_000);
  afterAll(() => app?.close());

  it('takes a JPEG, a PNG and a PDF by their bytes, names each by its type and serves each as a download', async () => {
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const link = documentsLink(base, claim);
    const sent = [
      // As a phone's browser sends them, and as no browser would: the bytes decide.
      { bytes: tinyJpeg(), type: 'image/jpeg', name: 'accident.jpg', stored: 'accident.jpg' },
      { bytes: tinyPng(), type: 'application/octet-stream', name: 'scan', stored: 'scan.png' },
      { bytes: tinyPdf(), type: 'image/jpeg', name: 'invoice.jpg', stored: 'invoice.pdf' },
    ];
    for (const file of sent) {
      const answer = await sendOnPage(link, file.bytes, file);
      expect(answer.status, answer.body.message).toBe(200);
      expect(answer.body.fileName).toBe(file.stored);
    }
    const documents = documentsAt(sandbox, claim);
    expect(documents.map((document) => document.name)).toEqual(sent.map((file) => file.stored));
    expect(sandbox.state.claims.get(claim.claimId)?.status).toBe('Documented');

    const types = ['image/jpeg', 'image/png', 'application/pdf'];
    for (const [n, document] of documents.entries()) {
      const file = await served(document.url);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(sent[n]?.bytes ?? Buffer.alloc(0))).toBe(true);
      expect(file.headers.get('content-type')).toBe(types[n]);
      expect(file.headers.get('content-disposition')).toBe(
        `attachment; filename="${sent[n]?.stored}"; filename*=UTF-8''${sent[n]?.stored}`,
      );
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    }
  });

  it.each([
    ['a Windows executable sent as a JPEG', windowsExecutable(), 'image/jpeg', 'invoice.jpg'],
    ['HTML sent as a PDF', htmlPage(), 'application/pdf', 'claim.pdf'],
    ['an SVG image', svgImage(), 'image/svg+xml', 'photo.svg'],
    ['an empty file', Buffer.alloc(0), 'image/jpeg', 'empty.jpg'],
  ])(
    'refuses %s with the words of docs/cover-and-claims.md, and nothing reaches the insurer',
    async (_what, bytes, type, name) => {
      const sandbox = sandboxOf(app);
      const claim = newClaim(sandbox);
      const answer = await sendOnPage(documentsLink(base, claim), bytes, { type, name });
      expect(answer.status).toBe(415);
      expect(answer.body.message).toBe(REFUSED_TYPE);
      expect(documentsAt(sandbox, claim)).toEqual([]);
    },
  );

  it('refuses a file one byte over 20 MB with the limit in its words', async () => {
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const answer = await sendOnPage(
      documentsLink(base, claim),
      jpegOfSize(tinyJpeg(), 20 * MB + 1),
      { type: 'image/jpeg', name: 'big.jpg' },
    );
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(TOO_LARGE);
    expect(documentsAt(sandbox, claim)).toEqual([]);
  });

  it('takes a claim up to its bytes exactly, and refuses one byte more', async () => {
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const link = documentsLink(base, claim);
    const declared = { type: 'image/jpeg', name: 'page.jpg' };
    expect((await sendOnPage(link, jpegOfSize(tinyJpeg(), 600_000), declared)).status).toBe(200);
    const over = await sendOnPage(link, jpegOfSize(tinyJpeg(), MB - 600_000 + 1), declared);
    expect(over.status).toBe(409);
    expect(over.body.message).toBe(claimFull(4));
    expect(documentsAt(sandbox, claim)).toHaveLength(1);
    // What was refused took no room: the claim's last byte still fits.
    expect((await sendOnPage(link, jpegOfSize(tinyJpeg(), MB - 600_000), declared)).status).toBe(
      200,
    );
    expect(documentsAt(sandbox, claim)).toHaveLength(2);
  });

  it('names a file whose x-file-name is not valid percent-encoding by its type, never a 500', async () => {
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const answer = await sendOnPage(documentsLink(base, claim), tinyPng(), {
      type: 'image/png',
      name: '%E0%A4%A',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.fileName).toBe('document.png');
    expect(documentsAt(sandbox, claim).map((document) => document.name)).toEqual(['document.png']);
  });

  it('refuses a forged link before reading its body: the answer comes with 64 KB of 10 MB sent', async () => {
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const genuine = new URL(documentsLink(base, claim));
    // The same claim and expiry, another signature.
    const forged = `${genuine.pathname.replace(/\.[A-Za-z0-9_-]{22}$/, '.AAAAAAAAAAAAAAAAAAAAAA')}/files`;
    const declared = 10 * MB;
    const answer = await new Promise<{ status: number; body: string; written: number }>(
      (resolve, reject) => {
        let written = 0;
        const upload = request(
          `${base}${forged}`,
          {
            method: 'POST',
            headers: { 'content-type': 'image/jpeg', 'content-length': String(declared) },
          },
          (response) => {
            // Answered while most of the body was never sent: it cannot have been read.
            const sentWhenAnswered = written;
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              body += chunk;
            });
            response.on('end', () => {
              upload.destroy();
              resolve({ status: response.statusCode ?? 0, body, written: sentWhenAnswered });
            });
          },
        );
        upload.on('error', reject);
        const chunk = Buffer.alloc(64 * 1024);
        upload.write(chunk, () => {
          written += chunk.length;
        });
        // Nothing more is written: a server that read the body first would never answer.
      },
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'refused',
      message: 'This link is not valid.',
    });
    expect(answer.written).toBeLessThan(declared);
    expect(documentsAt(sandbox, claim)).toEqual([]);
  });

  it('serves the page with nosniff and a policy that allows only its own script and style', async () => {
    const claim = newClaim(sandboxOf(app));
    const response = await fetch(documentsLink(base, claim));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = response.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1] ?? '';
    expect(nonce).not.toBe('');
    expect(policy).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain(`<script nonce="${nonce}">`);
    // A new nonce each time: one seen once cannot be reused by injected markup.
    const again = await fetch(documentsLink(base, claim));
    expect(again.headers.get('content-security-policy')).not.toBe(policy);
  });
});

describe('two instances of one deployment', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    [first, second] = await startTwinServers({
      FILES_SIGNING_SECRET: FILES_SECRET,
      CLAIM_MAX_FILES: '4',
      CLAIM_MAX_BYTES: String(MB),
    });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('count one claim together: of ten files sent at once to both, four are taken', async () => {
    const sandbox = sandboxOf(first);
    const claim = newClaim(sandbox);
    const links = [first, second].map((app) =>
      documentsLink(`http://127.0.0.1:${app.server.info.bound?.port}`, claim),
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        sendOnPage(links[n % 2] ?? '', tinyPng(), { type: 'image/png', name: `page-${n}.png` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 409, 409, 409, 409, 409, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.message).toBe(claimFull(4));
    expect(documentsAt(sandbox, claim)).toHaveLength(4);
  });
});
