import type { PageInput } from './paginate.js';
import { paginate } from './paginate.js';
import { notFound } from './sandbox-error.js';
import type { ClaimRecord, Json, SandboxContext } from './state.js';

/** Opens a claim in state Intimated. */
export function openClaim(
  ctx: SandboxContext,
  line: ClaimRecord['line'],
  policyId: string,
  fields: Json,
): ClaimRecord {
  const now = ctx.clock.now().toISOString();
  const id = ctx.ids.next('clm');
  const claim: ClaimRecord = {
    ...fields,
    id,
    claimNumber: `${line === 'credit-life' ? 'CLC' : 'GLC'}-${String(ctx.ids.seq('claim')).padStart(6, '0')}`,
    line,
    policyId,
    status: 'Intimated',
    documents: [],
    createdAt: now,
    updatedAt: now,
  };
  ctx.state.claims.set(id, claim);
  return claim;
}

/** A claim of a line by id. */
export function getClaim(ctx: SandboxContext, line: ClaimRecord['line'], id: string): ClaimRecord {
  const claim = ctx.state.claims.get(id);
  if (!claim || claim.line !== line) throw notFound('Claim', id);
  return claim;
}

/** "Track my claims": the claims of a line, optionally by status, paginated. */
export function listClaims(
  ctx: SandboxContext,
  line: ClaimRecord['line'],
  query: PageInput & { Status?: string | undefined },
) {
  const claims = [...ctx.state.claims.values()].filter(
    (claim) => claim.line === line && (query.Status === undefined || claim.status === query.Status),
  );
  return paginate(claims, query);
}

/** Attaches document URLs; the first upload moves the claim from Intimated to Documented. */
export function attachClaimDocuments(
  ctx: SandboxContext,
  line: ClaimRecord['line'],
  id: string,
  documents: readonly { url: string; name?: string | undefined }[],
): ClaimRecord {
  const claim = getClaim(ctx, line, id);
  const now = ctx.clock.now().toISOString();
  for (const document of documents) {
    claim.documents.push({ url: document.url, name: document.name ?? null, uploadedAt: now });
  }
  if (claim.status === 'Intimated') claim.status = 'Documented';
  claim.updatedAt = now;
  return claim;
}

/** Moves the claim numbered `number` to `status` (the insurer's own later steps); undefined if none. */
export function advanceClaim(
  ctx: SandboxContext,
  number: string,
  status: string,
): ClaimRecord | undefined {
  const claim = [...ctx.state.claims.values()].find((each) => each.claimNumber === number);
  if (!claim) return undefined;
  claim.status = status;
  claim.updatedAt = ctx.clock.now().toISOString();
  return claim;
}
