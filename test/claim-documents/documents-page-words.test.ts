import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadLinks } from '../../src/claim-documents/index.js';
import { sandboxOf, startTestServer, type TestServer } from '../server/test-server.js';
import { tinyPdf } from '../support/document-bytes.js';
import { FILES_SECRET, newClaim } from './documents-page.js';

/*
 * Issue 38, the documents page in the caller's language: the link an SMS carries names the
 * caller's language, and the page says the claim's status in words (never `Intimated`) and
 * lists the documents its scope of cover requires, in English, Bemba or Nyanja.
 */

let app: TestServer;
let base: string;

beforeAll(async () => {
  app = await startTestServer({ FILES_SIGNING_SECRET: FILES_SECRET });
  base = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);
afterAll(() => app?.close());

const links = () => createUploadLinks({ signingSecret: FILES_SECRET, publicUrl: () => base });

/** The page's visible text: its tags taken out, its script left out. */
async function pageText(link: string): Promise<string> {
  const html = await (await fetch(link)).text();
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

describe('the claim documents page', () => {
  it.each([
    ['en', 'Claim documents', 'claim received', 'Documents the insurer asks for:'],
    ['bem', 'Amapepala ya claim', 'claim yapokelelwa', 'Amapepala kampani ilefwaya:'],
    ['ny', 'Zikalata za claim', 'claim yalandiridwa', 'Zikalata zomwe kampani ikufuna:'],
  ])(
    'speaks %s: the status in words and the documents the claim needs',
    async (locale, title, status, needed) => {
      const claim = newClaim(sandboxOf(app));
      const link = links().link({ ...claim, locale });
      // English is the page's own language: its link names none.
      if (locale === 'en') expect(link).not.toContain('?');
      else expect(link.endsWith(`?l=${locale}`)).toBe(true);
      const text = await pageText(link);
      expect(text).toContain(title);
      expect(text).toContain(status);
      expect(text).toContain(needed);
      expect(text).not.toMatch(/Intimated|Documented/);
    },
  );

  it('lists the required documents in the caller’s words', async () => {
    const sandbox = sandboxOf(app);
    const claim = newClaim(sandbox);
    const type = sandbox.state.claims.get(claim.claimId)?.claimType;
    const text = await pageText(links().link({ ...claim, locale: 'bem' }));
    // The demo book's claim is under a credit-life scope whose requirements the mapping knows.
    expect(type).toBe('Retrenchment');
    expect(text).toContain('Amapepala kampani ilefwaya: Kalata ya kufumishiwa incito.');
    expect(text).not.toMatch(/Loan statement|Termination letter|Death certificate/);
  });

  it('answers an upload with the new status in the page’s language', async () => {
    const claim = newClaim(sandboxOf(app));
    const link = links().link({ ...claim, locale: 'ny' });
    // As the page's script sends it: to its own path's /files, with the page's query.
    const response = await fetch(link.replace('?', '/files?'), {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-file-name': 'letter.pdf' },
      body: tinyPdf(),
    });
    const answer = { status: response.status, body: (await response.json()) as unknown };
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'zikalata zalandiridwa', documents: 1 });
  });

  it('refuses a forged link in the page’s language', async () => {
    const claim = newClaim(sandboxOf(app));
    const link = links()
      .link({ ...claim, locale: 'bem' })
      .replace(/\.[\w-]{22}\?/, '.AAAAAAAAAAAAAAAAAAAAAA?');
    const response = await fetch(link);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Iyi link taili iya cine.');
  });
});
