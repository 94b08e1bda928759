import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { sandboxOf, startTestServer, type TestServer } from './test-server.js';
import { ussdCaller } from './ussd-caller.js';

/*
 * Issue 36: a claim the insurer has taken past Documented (it checks, approves and settles; the
 * spec names no state after Documented) reads as the insurer handling it, in the insurer's own
 * word, never "could not confirm this cover", and offers no Add documents. Through the real
 * server (USSD gateway route, engine, Redis) and the embedded sandbox.
 */

const { creditLife, claims } = DEMO_BOOK;
const logLines: string[] = [];
let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer(
    {},
    {
      logger: createLogger({
        level: 'warn',
        destination: { write: (line: string) => logLines.push(line) },
      }),
    },
  );
});
afterAll(async () => {
  await harness.close();
});

/** The number a USSD screen gives the choice whose label matches `label`. */
function numberOf(screen: string, label: RegExp): string {
  const line = screen.split('\n').find((row) => /^\d+\. /.test(row) && label.test(row));
  if (!line) throw new Error(`no ${label} on the screen:\n${screen}`);
  return line.split('.')[0] ?? '';
}

/** The borrower: Claims → Track my claims → credit life; the list, then the claim picked. */
async function trackTheBorrowersClaim(): Promise<{ list: string; detail: string }> {
  const phone = ussdCaller(
    () => harness.url,
    'past-documented',
    `+${creditLife.borrower.phoneNumber}`,
  );
  let menu = await phone.dial();
  // The last tracking ended on the claim's screen: start again rather than continue it.
  if (/unfinished session/.test(menu)) menu = await phone.send(numberOf(menu, /Start again/));
  const start = await phone.send(numberOf(menu, /Claims/));
  // Track my claims lists the caller's own claims at once.
  const list = await phone.send(numberOf(start, /Track my claims/));
  const detail = await phone.send(numberOf(list, new RegExp(claims.intimated.claimNumber)));
  return { list, detail };
}

it('tracks a claim the insurer moved to Approved as "the insurer is handling this claim (Approved)", with no Add documents, logged once', async () => {
  const sandbox = sandboxOf(harness);
  const claim = sandbox.state.claims.get(claims.intimated.id);
  if (!claim) throw new Error('the demo book has its intimated claim');
  // Before: the claim takes documents, as the spec says of Intimated.
  const before = await trackTheBorrowersClaim();
  expect(before.detail).toContain(`Claim ${claims.intimated.claimNumber}: claim received`);
  expect(before.detail).toContain('Add documents');

  // The insurer's own later step, which the spec leaves to it: approval.
  claim.status = 'Approved';
  const documentsHeld = claim.documents.length;
  const first = await trackTheBorrowersClaim();
  expect(first.list).toContain(
    `${claims.intimated.claimNumber} the insurer is handling this claim (Approved)`,
  );
  expect(first.detail).toContain(
    `Claim ${claims.intimated.claimNumber}: the insurer is handling this claim (Approved)`,
  );
  expect(first.detail).not.toMatch(/could not confirm|Add documents/);

  // Tracked again: the same words; the unknown word is logged once, with no personal data.
  const second = await trackTheBorrowersClaim();
  expect(second.detail).toContain('the insurer is handling this claim (Approved)');
  const logged = logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.event === 'insurer.unknownStatus');
  expect(logged).toEqual([expect.objectContaining({ subject: 'claim', status: 'Approved' })]);
  const logText = logLines.join('\n');
  expect(logText).not.toContain(creditLife.borrower.phoneNumber);
  // The insurer recorded nothing new: still Approved, no document added.
  expect(sandbox.state.claims.get(claims.intimated.id)?.status).toBe('Approved');
  expect(claim.documents).toHaveLength(documentsHeld);
}, 60_000);
