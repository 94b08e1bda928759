/*
 * claim-intimation's actors: intimate a credit-life or group-life claim, attach documents, and
 * read claims back. The staff desk reads claims through the same helpers.
 */
import { fromPromise } from 'xstate';
import { type Access, accessTo, type Principal, phoneOf } from '../src/access/index.js';
import type { Claim, PartnerClient } from '../src/api/index.js';
import { postClaimDocuments } from '../src/claim-documents/index.js';
import type { TurnRoute } from '../src/conversation/flow.js';
import { sameMsisdn } from '../src/msisdn/index.js';
import {
  type ClaimLine,
  type ClaimSummary,
  type ClaimTerms,
  type FoundClaim,
  GROUP_LIFE_TERMS,
  type IntimateInput,
  type OpenClaim,
  type OpenClaimAsked,
} from './claim-intimation.js';
import {
  claimByNumber,
  claimsOfPhone,
  getClaimOf,
  openClaimFor,
  recordClaim,
} from './claim-lookups.js';
import { CoverUnavailableError, heldCover } from './cover-status-actors.js';
import { type FlowDeps, orNotFound, withinLimits } from './flow-deps.js';
import { type OwnerLookup, ownerLookup } from './record-owners.js';
import { claimTakesDocuments, reportUnknownStatuses } from './status-words.js';
import { end, RefusalError, UnknownAnswerError } from './support.js';

function payableOf(claim: Claim): number | undefined {
  const payable = claim.payable as Record<string, unknown> | null | undefined;
  const total = payable?.totalPayable ?? payable?.payable ?? payable?.amount;
  return typeof total === 'number' ? total : undefined;
}

/** A claim as the flows keep it: id, number, status and payable amount when known. */
function claimSummary(claim: Claim): ClaimSummary {
  const summary: ClaimSummary = {
    id: String(claim.id),
    number: claim.claimNumber,
    status: claim.status,
    currency: claim.currency ?? 'ZMW',
  };
  const payable = payableOf(claim);
  if (payable !== undefined) summary.payable = payable;
  return summary;
}

/** A credit-life or group-life policy by its printed number (CL-…, GL-…); null when none. */
async function policyByNumber(client: PartnerClient, line: ClaimLine, number: string) {
  const wanted = number.toUpperCase();
  const policies =
    line === 'credit-life'
      ? client.paginate('getCreditLifePolicies', { query: { PageSize: 50 } })
      : client.paginate('getGroupLifePolicies', { query: { PageSize: 50 } });
  for await (const policy of policies) {
    if (policy.policyNumber?.toUpperCase() === wanted) return policy;
  }
  return null;
}

/**
 * Staff type the policy number printed on the schedule (CL-…, GL-…); the insurer's id is used as
 * given when no policy carries that number.
 */
export async function policyIdOf(
  client: PartnerClient,
  line: ClaimLine,
  typed: string,
): Promise<string> {
  const policy = await policyByNumber(client, line, typed);
  return policy ? String(policy.id) : typed;
}

/**
 * A claim as `access` lets its asker see it: the payable amount only to whoever learns
 * everything (the member's or borrower's own phone, staff); `mine` lets them add documents.
 */
function shownClaim(claim: Claim, access: Access): ClaimSummary {
  const summary = claimSummary(claim);
  if (access.learns !== 'everything') delete summary.payable;
  summary.mine = access.mine;
  return summary;
}

/** A claim through the access rule for `principal`: null when it may learn nothing of it. */
async function claimFor(
  owners: OwnerLookup,
  principal: Principal,
  line: ClaimLine,
  claim: Claim,
): Promise<ClaimSummary | null> {
  const access = accessTo(principal, await owners.claimOwners(line, claim));
  return access.learns === 'nothing' ? null : shownClaim(claim, access);
}

const names = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [])
    .map((item) =>
      typeof item === 'string'
        ? item
        : typeof item === 'object' && item !== null && 'name' in item
          ? String(item.name)
          : '',
    )
    .filter(Boolean);

/**
 * The claim terms of a credit-life policy's product: its scopes of cover (the claim types), what
 * each requires, and the notice the product allows. The product is the policy's when the policy
 * names it; otherwise the account's first credit-life product.
 */
async function creditLifeClaimTerms(client: PartnerClient, policyId: string): Promise<ClaimTerms> {
  const [policy, products] = await Promise.all([
    orNotFound(client.call('getCreditLifePolicy', { path: { policyId } }), null),
    client.call('getCreditLifeProducts', {}),
  ]);
  const productId = (policy as Record<string, unknown> | null)?.productId;
  const product =
    products.find((candidate) => productId != null && String(candidate.id) === String(productId)) ??
    products[0];
  return {
    scopes: (product?.scopesOfCover ?? [])
      .filter((scope) => scope.name)
      .map((scope) => ({
        name: scope.name ?? '',
        requirements: names(scope.claimRequirements),
      })),
    notificationDays: product?.claimNotificationDays ?? null,
  };
}

/**
 * The documents a claim's scope of cover requires, as the insurer names them: its claim type's
 * requirements in the policy's claim terms (the documents page lists them). None when the claim
 * names no type the terms know.
 */
export async function claimDocumentsNeeded(
  client: PartnerClient,
  line: ClaimLine,
  claim: {
    readonly policyId?: string | null | undefined;
    readonly claimType?: string | null | undefined;
  },
): Promise<string[]> {
  const terms =
    line === 'credit-life'
      ? await creditLifeClaimTerms(client, claim.policyId ?? '')
      : GROUP_LIFE_TERMS;
  return terms.scopes.find((scope) => scope.name === claim.claimType)?.requirements ?? [];
}

/**
 * The claim's one confirmation: its number, what happens next and how to add documents, to the
 * user's own channel (an SMS with the upload link on USSD, a chat message elsewhere), and a line
 * to the staff desk. Never fails the claim, which exists already.
 */
async function confirmClaim(deps: FlowDeps, input: IntimateInput, claim: ClaimSummary) {
  const params = {
    number: claim.number,
    claimType: input.claimType ?? '',
    subject: input.label ?? '',
    documents: input.requirements || '-',
  };
  const sends: Promise<void>[] = [];
  if (input.route && deps.notify) {
    const link =
      input.phone && deps.claimUploads
        ? deps.claimUploads.link({
            line: input.line,
            claimId: claim.id,
            number: claim.number,
            phone: input.phone,
            locale: input.route.locale,
          })
        : null;
    sends.push(
      deps.notify(
        input.route,
        link
          ? end('claim.notice.link', params, [
              { kind: 'link', url: link, label: 'claim.uploadPage' },
            ])
          : end('claim.notice.chat', params),
      ),
    );
  }
  if (deps.staff) {
    sends.push(
      deps.staff(
        end('claim.staff.intimated', {
          number: claim.number,
          line: input.line,
          claimType: input.claimType ?? '',
          status: claim.status,
        }),
      ),
    );
  }
  await Promise.allSettled(sends);
}

/** Who reported a claim, as intimation hands it on. */
interface Reporter {
  readonly phone: string;
  /** The reporter's phone is on record for the member or borrower. */
  readonly onRecord: boolean;
  /** The phones on record for the member or borrower. */
  readonly owners: readonly (string | null | undefined)[];
}

/**
 * Records who reported the claim and, the first time only, tells whoever must hear of a claim
 * reported by a phone not on record: each phone on record, by SMS in its own language, with the
 * claim number and how to object; staff, asked to verify, with the reporter's channel and phone
 * (the Slack channel masks it where shared). Never fails the claim, which exists already.
 */
async function reportedBy(
  deps: FlowDeps,
  request: IntimateInput,
  claim: Claim,
  reporter: Reporter,
): Promise<void> {
  const key = { line: request.line, claimId: String(claim.id) };
  const channel = request.route?.channel ?? (request.phone ? 'ussd' : 'chat');
  // A store that cannot answer counts as the first time: the member told twice beats never.
  const first = deps.claimReports
    ? await deps.claimReports
        .reported(key, {
          number: claim.claimNumber,
          channel,
          phone: reporter.phone,
          onRecord: reporter.onRecord,
          ...(request.route ? { reach: reachOf(request.route) } : {}),
        })
        .catch(() => true)
    : true;
  if (reporter.onRecord || !first) return;
  const told = otherPhones(reporter.owners, reporter.phone);
  const sms = deps.sms;
  const smsSent = sms
    ? await Promise.allSettled(
        told.map((phone) =>
          sms(
            phone,
            end(deps.serviceCode ? 'claim.sms.reported' : 'claim.sms.reported.noCode', {
              number: claim.claimNumber,
              ...(deps.serviceCode ? { serviceCode: deps.serviceCode } : {}),
            }),
          ),
        ),
      )
    : [];
  await deps.staff?.(
    end('staff.claim.verifyReporter', {
      number: claim.claimNumber,
      line: request.line,
      channel,
      phone: reporter.phone,
      told: smsSent.filter((sent) => sent.status === 'fulfilled').length,
    }),
  );
}

/** Where the reporter hears of the claim's progress: their conversation, in their language. */
const reachOf = (route: TurnRoute) => ({
  channel: route.channel,
  address: route.address,
  locale: route.locale,
});

/** The phones on record, each once, less the reporter's own. */
function otherPhones(owners: readonly (string | null | undefined)[], reporter: string): string[] {
  const out: string[] = [];
  for (const phone of owners) {
    if (!phone || sameMsisdn(phone, reporter) || out.some((seen) => sameMsisdn(seen, phone))) {
      continue;
    }
    out.push(phone);
  }
  return out;
}

/**
 * The claim already open for the loan or member, if any: its number goes to whoever may follow it
 * (the member's or borrower's phone, its reporter); anyone else learns only that one is open.
 */
async function openClaimOf(
  deps: FlowDeps,
  asked: OpenClaimAsked,
  policyId: string,
): Promise<OpenClaim | null> {
  const open = await openClaimFor(deps, asked, policyId);
  if (!open) return null;
  const owners = ownerLookup(deps.client, deps.registrations);
  const access = accessTo(asked.principal, await owners.claimOwners(asked.line, open));
  return access.mine ? { number: open.claimNumber } : {};
}

/**
 * Intimates a claim for `principal`: refused when one is already open for the member or loan;
 * staff are asked to verify one reported from a phone not on record; the user gets its
 * confirmation.
 */
async function intimate(
  deps: FlowDeps,
  input: IntimateInput & { principal: Principal },
): Promise<ClaimSummary> {
  const { client } = deps;
  const { principal, ...request } = input;
  const intimatedByPhone = phoneOf(principal);
  // Anyone may report a death, but never an anonymous chat: the member is told which claim was
  // made, and staff call the reporter back on a phone the channel vouched for.
  if (!intimatedByPhone) throw new RefusalError({ key: 'claim.note.needPhone' });
  const owners = ownerLookup(client, deps.registrations);
  const path = { policyId: await insurerPolicyId(client, request) };
  // One open claim per member or loan: a second report of the same death is refused with
  // the number the first one got, so the family follows that one. The flow asked already, as
  // soon as the loan or member was named; asked again here, as one may have been made since.
  const open = await openClaimOf(deps, { ...request, principal }, path.policyId);
  if (open) {
    throw new RefusalError(
      open.number
        ? { key: 'claim.note.alreadyOpen', params: { number: open.number } }
        : { key: 'claim.note.alreadyOpenElsewhere' },
    );
  }
  const reporter = { intimatedByPhone };
  // Who is on record for the borrower or member does not hang on the claim: read beside its
  // intimation when the record's NRC is known (issue 38), taken again by claimOwners below.
  const { subjectNrc } = request;
  if (subjectNrc) owners.phonesOfNrc(subjectNrc).catch(() => undefined);
  const claim =
    request.line === 'credit-life'
      ? await client.call('intimateCreditLifeClaim', {
          path,
          body: {
            ...(request.by === 'loanId'
              ? { loanId: request.subject }
              : { partnerLoanReference: request.subject }),
            // The scope of cover by the product's own name for it (Retrenchment, Death…).
            claimType: request.claimType ?? 'Death',
            lossDate: request.eventDate,
            description: request.details,
            ...reporter,
          },
        })
      : await client.call('intimateGroupLifeClaim', {
          path,
          body: {
            ...(request.by === 'memberId'
              ? { memberId: request.subject }
              : { nrcNumber: request.subject }),
            lossDate: request.eventDate,
            causeOfDeath: request.details,
            ...reporter,
          },
        });
  // Found by Track my claims and by its number at once, before the sync reads it.
  await recordClaim(deps, request.line, claim, { ...path, [request.by]: request.subject });
  const recordOwners = await owners.claimOwners(request.line, claim, subjectNrc);
  const access = accessTo(principal, recordOwners);
  await reportedBy(deps, request, claim, {
    phone: intimatedByPhone,
    onRecord: access.learns === 'everything',
    owners: recordOwners.phones,
  });
  const shown = shownClaim(claim, access);
  await confirmClaim(deps, request, shown);
  return shown;
}

/** The insurer's id of the policy a claim names: as given when it is one already (`byId`). */
function insurerPolicyId(
  client: PartnerClient,
  input: { line: ClaimLine; policyId: string; byId?: true | undefined },
): Promise<string> {
  return input.byId
    ? Promise.resolve(input.policyId)
    : policyIdOf(client, input.line, input.policyId);
}

/** How long claim terms read ahead wait for the step that takes them. */
const AHEAD_MS = 60_000;
/** Claim terms read ahead, per client, by policy id: each taken once, or dropped when stale. */
const termsAhead = new WeakMap<
  PartnerClient,
  Map<string, { readonly at: number; readonly terms: Promise<ClaimTerms> }>
>();

/** Starts reading a credit-life policy's claim terms now, for the step that will need them. */
function readTermsAhead(client: PartnerClient, policyId: string): void {
  const ahead = termsAhead.get(client) ?? new Map();
  termsAhead.set(client, ahead);
  const now = Date.now();
  for (const [id, read] of ahead) if (now - read.at > AHEAD_MS) ahead.delete(id);
  const terms = creditLifeClaimTerms(client, policyId);
  // A failure is told by the step that takes the read (it awaits this same promise).
  terms.catch(() => undefined);
  ahead.set(policyId, { at: now, terms });
}

/** A policy's claim terms: the read started ahead for it when there is one, else read now. */
function termsReadAhead(client: PartnerClient, policyId: string): Promise<ClaimTerms> {
  const ahead = termsAhead.get(client);
  const read = ahead?.get(policyId);
  ahead?.delete(policyId);
  return read && Date.now() - read.at <= AHEAD_MS
    ? read.terms
    : creditLifeClaimTerms(client, policyId);
}

/** The caller's own claims of `line`, found from the phone the principal is (none without one). */
async function ownClaims(
  deps: FlowDeps,
  line: ClaimLine,
  principal: Principal,
): Promise<ClaimSummary[]> {
  const owners = ownerLookup(deps.client, deps.registrations);
  const mine: ClaimSummary[] = [];
  const phone = principal.kind === 'phone' ? phoneOf(principal) : undefined;
  if (!phone) return mine;
  const found = await claimsOfPhone(deps, line, phone);
  for (const claim of found.claims) {
    const shown = await claimFor(owners, principal, line, claim);
    if (shown?.mine) mine.push(shown);
    if (mine.length >= MAX_TRACKED) break;
  }
  // Nothing found and the index cannot say there is nothing: unknown, never "no claims".
  if (mine.length === 0 && !found.known) {
    throw new UnknownAnswerError({ key: 'claim.note.unknown' });
  }
  reportClaimStatuses(deps, mine);
  return mine;
}

/** The actors claim-intimation invokes; each answers through the access rule for its principal. */
export function claimIntimationActors(deps: FlowDeps) {
  const { client } = deps;
  return {
    intimateClaim: fromPromise(
      async ({ input }: { input: IntimateInput & { principal: Principal } }) =>
        intimate(deps, input),
    ),
    // The claim terms the next screen needs are read beside the open-claim check, not after it
    // (issue 38: one insurer call in series per turn); the terms' own step takes that read.
    openClaim: fromPromise(async ({ input }: { input: OpenClaimAsked }) => {
      const policyId = await insurerPolicyId(client, input);
      if (input.line === 'credit-life') readTermsAhead(client, policyId);
      return openClaimOf(deps, input, policyId);
    }),
    claimTerms: fromPromise(
      async ({
        input,
      }: {
        input: { line: ClaimLine; policyId: string; byId?: true };
      }): Promise<ClaimTerms> => termsReadAhead(client, await insurerPolicyId(client, input)),
    ),
    sendUploadLink: fromPromise(
      async ({
        input,
      }: {
        input: {
          line: ClaimLine;
          claimId: string;
          number: string;
          phone: string;
          locale?: string;
        };
      }) => {
        if (!deps.claimUploads || !deps.sms) throw new CoverUnavailableError('no upload page');
        // The link goes to the caller's own phone: counted per caller only.
        await withinLimits(deps, {
          kind: 'sms',
          principal: { kind: 'phone', phone: input.phone },
          target: { kind: 'phone', value: input.phone },
        });
        const url = deps.claimUploads.link(input);
        await deps.sms(
          input.phone,
          end('claim.sms.upload', { number: input.number }, [
            { kind: 'link', url, label: 'claim.uploadPage' },
          ]),
        );
        return { sent: true };
      },
    ),
    attachDocuments: fromPromise(
      async ({
        input,
      }: {
        input: { line: ClaimLine; claimId: string; urls: string[]; principal: Principal };
      }) => {
        const owners = ownerLookup(client, deps.registrations);
        const before = await getClaimOf(client, input.line, input.claimId);
        const access = accessTo(input.principal, await owners.claimOwners(input.line, before));
        if (!access.mine) throw new RefusalError({ key: 'claim.note.notYours' });
        // Past Documented the insurer is checking, approving or settling: evidence goes to it.
        if (!claimTakesDocuments(before.status)) {
          throw new RefusalError({ key: 'claim.note.noDocuments' });
        }
        const key = { line: input.line, claimId: input.claimId };
        // The server's evidence keeps each file for the claim and posts its kept link and name;
        // without it (flows on their own) the URLs go as they are.
        // On a claim to verify (reported by someone not on record), a file from anyone but a
        // phone on record is held until staff confirm; the owner's own go straight through.
        const evidence = deps.claimEvidence;
        const from = { onRecord: access.learns === 'everything' };
        let claim: (Claim & { held?: boolean }) | undefined;
        let held = false;
        if (evidence) {
          for (const url of input.urls) {
            claim = await evidence.attachUpload(key, url, from);
            held ||= claim.held === true;
          }
        }
        claim ??= await postClaimDocuments(
          client,
          key,
          input.urls.map((url) => ({ url })),
        );
        const shown = shownClaim(claim, access);
        if (held) shown.held = true;
        return shown;
      },
    ),
    // "Track my claims": only the caller's own (their loans and memberships, and claims their
    // phone reported), found through the index and read fresh one by one (claim-lookups.ts).
    trackClaims: fromPromise(
      async ({ input }: { input: { line: ClaimLine; principal: Principal } }) =>
        ownClaims(deps, input.line, input.principal),
    ),
    // Both lines read at once: one wait, not two in series.
    myClaims: fromPromise(async ({ input }: { input: { principal: Principal } }) => {
      const lines: ClaimLine[] = ['credit-life', 'group-life'];
      const read = await Promise.allSettled(
        lines.map((line) => ownClaims(deps, line, input.principal)),
      );
      const failed = read.find((r) => r.status === 'rejected');
      const found = read.flatMap((r, i) =>
        r.status === 'fulfilled'
          ? r.value.map((claim) => ({ ...claim, line: lines[i] ?? 'credit-life' }))
          : [],
      );
      // A line not read and nothing found in the other: unknown, never "no claims".
      if (failed && found.length === 0) throw failed.reason;
      return found;
    }),
    getClaim: fromPromise(
      async ({ input }: { input: { line: ClaimLine; claimId: string; principal: Principal } }) => {
        const claim = await getClaimOf(client, input.line, input.claimId);
        const shown = await claimFor(
          ownerLookup(client, deps.registrations),
          input.principal,
          input.line,
          claim,
        );
        if (!shown) throw new RefusalError({ key: 'claim.note.notYours' });
        reportClaimStatuses(deps, [shown]);
        return shown;
      },
    ),
    // Holdings found from the principal's own phone: theirs by construction.
    heldCover: fromPromise(async ({ input }: { input: { principal: Principal } }) => {
      const phone = phoneOf(input.principal);
      return phone ? heldCover(deps, phone) : { held: [], truth: 'none' as const };
    }),
    findClaim: fromPromise(
      async ({
        input,
      }: {
        input: { number: string; principal: Principal; route?: TurnRoute | null };
      }): Promise<FoundClaim | null> => {
        // A typed claim number is a look-up: counted per caller, so numbers cannot be tried in bulk.
        await withinLimits(deps, {
          kind: 'lookup',
          principal: input.principal,
          route: input.route,
          target: { kind: 'claim', value: input.number },
        });
        const found = await claimByNumber(deps, input.number);
        if (!found) return null;
        const shown = await claimFor(
          ownerLookup(client, deps.registrations),
          input.principal,
          found.line,
          found,
        );
        if (shown) reportClaimStatuses(deps, [shown]);
        return shown ? { ...shown, line: found.line } : null;
      },
    ),
  };
}

/** Reports the claim words no mapping knows (a state past Documented): the status only. */
function reportClaimStatuses(deps: FlowDeps, claims: readonly ClaimSummary[]): void {
  reportUnknownStatuses(
    deps.onUnknownStatus,
    claims.map((claim) => ({ subject: 'claim' as const, status: claim.status })),
  );
}

/** The most claims "Track my claims" lists. */
const MAX_TRACKED = 5;
