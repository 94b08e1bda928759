import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUploadLinks } from '../../src/claim-documents/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { sandboxOf, startTwinServers, type TestServer } from '../server/test-server.js';
import { manualClock } from '../support/manual-clock.js';
import { startS3Server, TEST_BUCKET, type TestS3Server } from '../support/s3-server.js';

/*
 * Two instances of one deployment share an S3-compatible bucket (s3rver, a real S3 server in
 * this process): a claim document sent on the /d/ page of one is served by the other for as long
 * as the insurer reports the claim and a year after, then goes; a chat upload one instance kept
 * is found and deleted by "Delete my data" (forgetOwner) on the other. Time is a manual clock.
 */

const DAY = 86_400_000;
const SECRET = 'shared-bucket-signing-secret';
const { intimated } = DEMO_BOOK.claims;
const clock = manualClock();
let s3: TestS3Server;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  s3 = await startS3Server();
  [first, second] = await startTwinServers(
    {
      FILES_URL: `s3://${TEST_BUCKET}/shared/${randomUUID()}`,
      FILES_S3_ENDPOINT: s3.endpoint,
      FILES_S3_REGION: 'us-east-1',
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_S3_FORCE_PATH_STYLE: 'true',
      FILES_SIGNING_SECRET: SECRET,
    },
    { fileClock: clock.now },
  );
}, 60_000);

afterAll(async () => {
  await second?.close();
  await first?.close();
  await s3?.close();
});

/** `url`'s path and query on `server`: where a load balancer could have sent the insurer. */
function on(server: TestServer, url: string): string {
  const parsed = new URL(url);
  return `${server.url}${parsed.pathname}${parsed.search}`;
}

it('keeps a claim document the insurer holds while it needs it, across instances, then deletes it', async () => {
  const sandbox = sandboxOf(first);
  const record = () => sandbox.state.claims.get(intimated.id);
  // The SMS link of the /d/ page, signed as the deployment signs it.
  const links = createUploadLinks({ signingSecret: SECRET, publicUrl: () => first.url });
  const page = links.link({ line: 'credit-life', claimId: intimated.id });
  const sent = await fetch(`${page}/files`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf', 'x-file-name': 'termination-letter.pdf' },
    body: '%PDF-1.4 termination letter',
  });
  expect(sent.status).toBe(200);
  expect(await sent.json()).toMatchObject({ status: 'documents received', documents: 1 });

  // What the insurer recorded: our own kept link (no expiry), with the file's name.
  const [document] = record()?.documents ?? [];
  expect(document?.name).toBe('termination-letter.pdf');
  const url = new URL(document?.url ?? 'about:blank');
  expect(url.pathname).toMatch(/^\/files\/[0-9a-f-]{36}$/);
  expect(url.searchParams.has('exp')).toBe(false);
  expect(url.searchParams.get('sig')).toBeTruthy();
  const served = await fetch(on(second, url.toString()));
  expect(served.status).toBe(200);
  expect(await served.text()).toBe('%PDF-1.4 termination letter');

  clock.advance(31 * DAY); // past the 30 days a file with no claim is kept
  expect(await second.server.sweepFiles()).toBe(0);
  expect((await fetch(on(second, url.toString()))).status).toBe(200);

  clock.advance(169 * DAY); // day 200: the insurer moves the claim on
  // The sandbox models a claim's first two states; the insurer's later ones are not in the spec.
  const claim: { status: string } | undefined = record();
  if (claim) claim.status = 'Approved';
  expect(await first.server.sweepFiles()).toBe(0);
  expect((await fetch(on(first, url.toString()))).status).toBe(200);

  clock.advance(DAY); // the insurer no longer reports the claim
  sandbox.state.claims.delete(intimated.id);
  clock.advance(363 * DAY); // 364 days after the change seen on day 200
  expect(await second.server.sweepFiles()).toBe(0);
  expect((await fetch(on(first, url.toString()))).status).toBe(200);

  clock.advance(2 * DAY); // a year and a day after it
  expect(await second.server.sweepFiles()).toBe(1);
  for (const server of [first, second]) {
    expect((await fetch(on(server, url.toString()))).status).toBe(404);
  }
}, 60_000);

it('"Delete my data" on one instance deletes the chat uploads another instance kept', async () => {
  const owner = 'telegram:7001';
  const { id } = await first.server.files.put(Buffer.from('claim photo'), {
    contentType: 'image/jpeg',
    fileName: 'car.jpg',
    owner,
  });
  const link = first.server.files.link(id);
  expect(await second.server.files.countOwned(owner)).toBe(1);
  expect(await (await fetch(on(second, link))).text()).toBe('claim photo');

  expect(await second.server.files.forgetOwner(owner)).toBe(1);
  expect(await first.server.files.countOwned(owner)).toBe(0);
  for (const server of [first, second]) {
    expect((await fetch(on(server, link))).status).toBe(404);
  }
}, 30_000);
