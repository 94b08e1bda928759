import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentsAt,
  documentsLink,
  FILES_SECRET,
  newClaim,
  sendOnPage,
} from '../claim-documents/documents-page.js';
import { sandboxOf, startTestServer, type TestServer } from '../server/test-server.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';
import { jpegHtmlPolyglot, tinyPng } from '../support/document-bytes.js';

/*
 * Issue 37 in a real browser (Debian chromium): a JPEG/HTML polyglot is a JPEG by its bytes, so a
 * claim takes it; served from the bot's origin it never renders there and its script never runs,
 * while the same bytes served as HTML elsewhere do run (the check can fail). The documents page's
 * own script still runs under its Content-Security-Policy.
 */

let app: TestServer;
let base: string;
let chrome: TestBrowser | undefined;
let context: BrowserContext;
/** A server the polyglot's script would call, and the same bytes served inline as HTML. */
let marker: { server: Server; url: string; hits: () => number; serve: (html: Uint8Array) => void };

beforeAll(async () => {
  app = await startTestServer({ FILES_SIGNING_SECRET: FILES_SECRET });
  base = `http://127.0.0.1:${app.server.info.bound?.port}`;
  let hits = 0;
  let page: Uint8Array = Buffer.alloc(0);
  const server = createServer((request, response) => {
    if (request.url === '/control') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(page);
      return;
    }
    hits += 1;
    response.writeHead(204, { 'access-control-allow-origin': '*' });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  marker = {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    serve: (html) => {
      page = html;
    },
  };
  chrome = await launchChromium();
  context = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise<void>((resolve) => marker?.server.close(() => resolve()));
  await app?.close();
});

describe('a served JPEG/HTML polyglot in chromium', () => {
  let served = '';
  let polyglot: Buffer = Buffer.alloc(0);

  beforeAll(async () => {
    polyglot = jpegHtmlPolyglot(`${marker.url}/ran`);
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const answer = await sendOnPage(documentsLink(base, claim), polyglot, {
      type: 'text/html',
      name: 'photo.html',
    });
    // Its bytes are a JPEG: taken, and kept as one.
    expect(answer.status).toBe(200);
    expect(answer.body.fileName).toBe('photo.jpg');
    served = documentsAt(sandbox, claim)[0]?.url ?? '';
    expect(served.startsWith(`${base}/files/`)).toBe(true);
  });

  it('runs its script when the same bytes are served as HTML elsewhere (the check can fail)', async () => {
    marker.serve(polyglot);
    const before = marker.hits();
    const page = await context.newPage();
    await page.goto(`${marker.url}/control`);
    expect(await page.title()).toBe('pwned');
    await expect.poll(() => marker.hits()).toBeGreaterThan(before);
    await page.close();
  });

  it('is a download from the bot: nothing of it renders and no script runs', async () => {
    const before = marker.hits();
    const page = await context.newPage();
    const download = page.waitForEvent('download');
    // A download ends the navigation: the page stays where it was.
    await page.goto(served).catch(() => undefined);
    const file = await download;
    expect(file.suggestedFilename()).toBe('photo.jpg');
    expect(page.url()).toBe('about:blank');
    expect(await page.title()).toBe('');
    expect(marker.hits()).toBe(before);
    await page.close();
  });

  it('runs no script even in a browser that ignored attachment and the type: the policy stops it', async () => {
    const before = marker.hits();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|sandbox/i.test(message.text())) blocked.push(message.text());
    });
    // Our own response, its headers as sent but for content-disposition and the type.
    await page.route(`${base}/files/**`, async (route) => {
      const response = await route.fetch();
      const headers: Record<string, string> = {
        ...response.headers(),
        'content-type': 'text/html',
      };
      delete headers['content-disposition'];
      expect(headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      await route.fulfill({ response, headers });
    });
    await page.goto(served);
    // Rendered as HTML this time, yet its script never ran: no title, no call out.
    expect(await page.title()).not.toBe('pwned');
    expect(marker.hits()).toBe(before);
    expect(blocked.length).toBeGreaterThan(0);
    await page.close();
  });
});

it('the documents page runs its own script under its policy: a chosen photo is sent', async () => {
  const sandbox = sandboxOf(app);
  const claim = newClaim(sandbox);
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(documentsLink(base, claim));
  await page.locator('#files').setInputFiles({
    name: 'accident.png',
    mimeType: 'image/png',
    buffer: tinyPng(),
  });
  await expect.poll(() => page.locator('li.sent').count()).toBe(1);
  expect(await page.locator('li.sent').textContent()).toBe('accident.png: sent');
  expect(documentsAt(sandbox, claim).map((document) => document.name)).toEqual(['accident.png']);
  expect(violations).toEqual([]);
  await page.close();
}, 30_000);
