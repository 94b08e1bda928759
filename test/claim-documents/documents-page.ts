import { expect } from 'vitest';
import { createUploadLinks, type LinkedClaim } from '../../src/claim-documents/index.js';
import { DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';

/** The signing secret the documents-page tests start their servers with. */
export const FILES_SECRET = 'claim-documents-test-secret';

let made = 0;

/**
 * A new credit-life claim at the sandbox insurer, Intimated with no documents: the demo book's
 * intimated claim again under a fresh id and number, so each test counts its own files.
 */
export function newClaim(sandbox: Sandbox): LinkedClaim & { number: string } {
  const demo = sandbox.state.claims.get(DEMO_BOOK.claims.intimated.id);
  if (!demo) throw new Error('the demo book has no intimated claim');
  made += 1;
  const claimId = `clm_test${process.pid}${made}`;
  const number = `CLC-TEST-${process.pid}-${made}`;
  sandbox.state.claims.set(claimId, {
    ...structuredClone(demo),
    id: claimId,
    claimNumber: number,
    status: 'Intimated',
    documents: [],
  });
  return { line: 'credit-life', claimId, number };
}

/** The documents the sandbox insurer holds for a claim. */
export function documentsAt(sandbox: Sandbox, claim: LinkedClaim) {
  return sandbox.state.claims.get(claim.claimId)?.documents ?? [];
}

/** The `/d/` link a claim's SMS would carry, on the server at `base`. */
export function documentsLink(base: string, claim: LinkedClaim): string {
  return createUploadLinks({ signingSecret: FILES_SECRET, publicUrl: () => base }).link(claim);
}

/** What the page's script sends for one chosen file: raw bytes, its type and its name. */
export async function sendOnPage(
  link: string,
  bytes: Uint8Array,
  declared: { type: string; name: string },
): Promise<{ status: number; body: { message?: string; fileName?: string; documents?: number } }> {
  const response = await fetch(`${link}/files`, {
    method: 'POST',
    headers: { 'content-type': declared.type, 'x-file-name': declared.name },
    body: bytes,
  });
  const text = await response.text();
  expect(text, 'never a stack trace').not.toMatch(/at .+\(.+:\d+:\d+\)/);
  return { status: response.status, body: JSON.parse(text) as { message?: string } };
}

/** A JPEG of exactly `size` bytes: the small valid one, then padding after its end marker. */
export function jpegOfSize(jpeg: Buffer, size: number): Buffer {
  return Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
}

/** Fetches a served file; its headers and bytes. */
export async function served(
  url: string,
): Promise<{ headers: Headers; bytes: Buffer; status: number }> {
  const response = await fetch(url);
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
