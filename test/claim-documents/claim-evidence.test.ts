import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from '../../src/api/index.js';
import {
  ClaimEvidenceError,
  createClaimEvidence,
  createClaimReports,
  insurerClaimReport,
} from '../../src/claim-documents/index.js';
import { createFileStore, type FileStore } from '../../src/files/index.js';
import { createMemoryStore } from '../../src/storage/index.js';
import { drop, type HttpStub, json, startStub, text } from '../api/http-stub.js';

/*
 * The insurer side of claim evidence against a local HTTP insurer: what is posted for a stored
 * file, and what the sweep concludes from each kind of answer (only a proper 404 is "gone").
 */

const CLAIM = { line: 'group-life', claimId: 'clm_9' } as const;
let stub: HttpStub;
let client: PartnerClient;
let files: FileStore;

beforeAll(async () => {
  stub = await startStub();
  client = createPartnerClient({
    baseUrl: stub.baseUrl,
    apiKey: 'test-key',
    retryBaseDelayMs: 1,
    maxRetries: 0,
  });
  files = await createFileStore({ signingSecret: 's', publicUrl: 'https://bot.test' });
});
afterEach(() => {
  stub.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await files.close();
  await stub.close();
});

const claimBody = (status: string) => ({
  id: 'clm_9',
  claimNumber: 'GLC-000009',
  status,
  documents: [],
});

describe('insurerClaimReport', () => {
  const report = () => insurerClaimReport(client)(CLAIM);

  it("says reported with the claim's status when the insurer has it", async () => {
    stub.respond(json(200, claimBody('Documented')));
    expect(await report()).toEqual({ kind: 'reported', status: 'Documented' });
    expect(stub.requests[0]?.url).toBe('/api/v1/group-life/claims/clm_9');
  });

  it("says gone only for a 404 in the insurer's error body", async () => {
    stub.respond(json(404, { status: 404, message: 'Claim clm_9 was not found' }));
    expect(await report()).toEqual({ kind: 'gone' });
  });

  it('says unknown for an insurer that is down, failing or answering strangely', async () => {
    for (const answer of [
      text(404, '<html>Not Found</html>', 'text/html'), // a proxy's page, not the insurer
      json(500, { status: 500, message: 'boom' }),
      json(200, { unexpected: true }), // a claim out of shape
      drop,
    ]) {
      stub.respond(answer);
      expect(await report()).toEqual({ kind: 'unknown' });
    }
  });
});

describe('createClaimEvidence', () => {
  it('records the claim on the file and posts its kept link with its name', async () => {
    stub.respond(json(200, claimBody('Documented')));
    const { id } = await files.put(Buffer.from('%PDF'), {
      contentType: 'application/pdf',
      fileName: 'death-certificate.pdf',
    });
    const evidence = createClaimEvidence(client, files);
    const claim = await evidence.attachUpload(CLAIM, files.signedUrl(id));
    expect(claim.status).toBe('Documented');
    expect(stub.requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/group-life/claims/clm_9/documents',
    });
    expect(JSON.parse(stub.requests[0]?.body ?? '{}')).toEqual({
      documents: [{ url: files.link(id), name: 'death-certificate.pdf' }],
    });
    expect((await files.open(id)).meta.claim).toEqual(CLAIM);
  });

  it('posts nothing for a URL the file store did not sign', async () => {
    const evidence = createClaimEvidence(client, files);
    await expect(
      evidence.attachUpload(CLAIM, 'https://elsewhere.example/files/photo.jpg'),
    ).rejects.toBeInstanceOf(ClaimEvidenceError);
    expect(stub.requests).toHaveLength(0);
  });
});

describe('createClaimEvidence on a claim reported by someone not on record', () => {
  const REPORT = { number: 'GLC-000009', channel: 'ussd', phone: '260955444777' } as const;
  const stored = async (name: string) =>
    (await files.put(Buffer.from('%PDF'), { contentType: 'application/pdf', fileName: name })).id;

  it("holds the reporter's file for staff (nothing is posted), and posts it once staff confirm", async () => {
    const reports = createClaimReports(createMemoryStore(), 'test:');
    await reports.reported(CLAIM, { ...REPORT, onRecord: false });
    const evidence = createClaimEvidence(client, files, reports);
    const id = await stored('certificate.pdf');
    stub.respond(json(200, claimBody('Intimated')));
    const held = await evidence.attachUpload(CLAIM, files.signedUrl(id), { onRecord: false });
    expect(held).toMatchObject({ status: 'Intimated', held: true });
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
    // Kept for the claim meanwhile: the sweep keeps it while the insurer reports the claim.
    expect((await files.open(id)).meta.claim).toEqual(CLAIM);

    stub.requests.length = 0;
    stub.respond(json(200, claimBody('Documented')));
    expect(await evidence.release(CLAIM, 'U0STAFF')).toEqual({ posted: 1 });
    expect(stub.requests).toHaveLength(1);
    expect(JSON.parse(stub.requests[0]?.body ?? '{}')).toEqual({
      documents: [{ url: files.link(id), name: 'certificate.pdf' }],
    });
    expect(await reports.held(CLAIM)).toEqual([]);
  });

  it('posts at once a file from a phone on record, and every file on a claim its own phone reported', async () => {
    const reports = createClaimReports(createMemoryStore(), 'test:');
    await reports.reported(CLAIM, { ...REPORT, onRecord: false });
    const evidence = createClaimEvidence(client, files, reports);
    stub.respond(json(200, claimBody('Documented')));
    const own = await evidence.attachUpload(CLAIM, files.signedUrl(await stored('a.pdf')), {
      onRecord: true,
    });
    expect(own.held).toBeUndefined();
    expect(stub.requests.map((r) => r.method)).toEqual(['POST']);

    const other = { line: 'credit-life', claimId: 'clm_10' } as const;
    await reports.reported(other, { ...REPORT, number: 'CLC-000010', onRecord: true });
    stub.requests.length = 0;
    stub.respond(json(200, { ...claimBody('Documented'), id: 'clm_10' }));
    const page = await evidence.attach(other, await stored('b.pdf'));
    expect(page).not.toHaveProperty('held');
    expect(stub.requests.map((r) => r.method)).toEqual(['POST']);
  });
});
