import { afterAll, beforeAll, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { claimIntimationActors } from '../../flows/claim-intimation-actors.js';
import type { FlowDeps } from '../../flows/flow-deps.js';
import { RefusalError } from '../../flows/support.js';
import { createPartnerClient, type PartnerClient } from '../../src/api/index.js';
import { createSandbox, DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';

/*
 * Issue 36: documents are taken only while a claim is Intimated or Documented (the spec's
 * "later steps (check, approve, settle) are done by the insurer"). A stale Add documents on a
 * claim the insurer has approved is refused before anything reaches the insurer.
 */

const { claims, creditLife } = DEMO_BOOK;
let sandbox: Sandbox;
let client: PartnerClient;

beforeAll(async () => {
  sandbox = createSandbox({ settleDelayMs: 600_000 });
  const { url } = await sandbox.listen();
  client = createPartnerClient({ baseUrl: url, apiKey: sandbox.apiKey, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

/** The borrower attaches one document to the demo book's credit-life claim. */
function attach() {
  // Only the client is reached on this path (no evidence store: URLs are posted as they are).
  const deps = { client } as unknown as FlowDeps;
  const actor = createActor(claimIntimationActors(deps).attachDocuments, {
    input: {
      line: 'credit-life',
      claimId: claims.intimated.id,
      urls: ['https://files.example.test/death-certificate.jpg'],
      principal: { kind: 'phone', phone: creditLife.borrower.phoneNumber },
    },
  });
  actor.start();
  return toPromise(actor);
}

it('refuses documents for a claim the insurer approved, and posts nothing', async () => {
  const claim = sandbox.state.claims.get(claims.intimated.id);
  if (!claim) throw new Error('the demo book has its intimated claim');
  claim.status = 'Approved';
  const held = claim.documents.length;
  const refused = await attach().then(
    () => null,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(RefusalError);
  expect((refused as RefusalError).note.key).toBe('claim.note.noDocuments');
  expect(claim.documents).toHaveLength(held);
  expect(claim.status).toBe('Approved');
});

it('takes documents while the claim is Intimated, which moves it to Documented', async () => {
  const claim = sandbox.state.claims.get(claims.intimated.id);
  if (!claim) throw new Error('the demo book has its intimated claim');
  claim.status = 'Intimated';
  const held = claim.documents.length;
  const shown = await attach();
  expect(shown.status).toBe('Documented');
  expect(claim.documents).toHaveLength(held + 1);
});
