import type { AnyStateMachine } from 'xstate';
import type { HeldCover } from '../../flows/claim-intimation.js';
import type { FlowId } from '../../flows/index.js';
import { createFlowRegistry } from '../../flows/index.js';
import type { Principal } from '../../src/access/index.js';
import type { Reply } from '../../src/conversation/reply.js';
import { DEMO_BOOK, MOTOR_PRODUCTS, SEED } from '../../src/sandbox/index.js';
import { daysAgo, type Impl, SECOND_OFFER, worldMachine } from './fixtures.js';
import type { FlowSnapshot } from './harness.js';
import {
  type SandboxWorld,
  type SandboxWorldOptions,
  seededMotorOffers,
  startSandboxWorld,
} from './sandbox-world.js';

/** The sandbox insurer's today: its clock reads UTC dates, so policies start on its day. */
const insurerToday = (): string => new Date().toISOString().slice(0, 10);

/** The sandbox a world's paths run against: one fresh insurer per path, prepared alike. */
export interface WorldSetup extends SandboxWorldOptions {
  /** Claims on record before the walk (a credit-life and a group-life one); default true. */
  readonly claims?: boolean;
  /**
   * The seeded policyholder's phone: the caller found as the holder and the number paid from, so
   * its last digit chooses the payment's outcome; default the seeded one (payments succeed).
   */
  readonly holderPhone?: string;
}

/** Rewrites a reply of the model's path (`before` is the screen it answers) for the sandbox. */
export type Rewrite = (reply: Reply, index: number, before: FlowSnapshot | undefined) => Reply;

/** How one model world is lined up with the sandbox. */
export interface AlignedWorld {
  /** The sandbox each replayed path of the world runs against. */
  readonly sandbox: WorldSetup;
  /** Stand-ins that answer with what the sandbox holds (laid over the world's own). */
  readonly impl?: Impl;
  /** Rewrites a reply of the model's path for the sandbox. */
  readonly reply?: Rewrite;
  /** The USSD caller's number per path; its last digit chooses the sandbox's payment outcome. */
  readonly caller?: (index: number) => string;
  /** Settle the live payment after every turn (as its payer's number chooses). */
  readonly settle?: boolean;
}

/** Every model world lined up with the sandbox. */
export interface SandboxAlignment {
  /** The aligned world of `flow` in `variant`. */
  world(flow: FlowId, variant: string): AlignedWorld;
  /** The typical world of a flow, aligned (the screen a main-menu hand-over lands on). */
  machine(flow: FlowId): AnyStateMachine;
}

/** Records {@link openWorld} creates in every sandbox, the same ids in each. */
export interface Prepared {
  readonly creditLifePolicyId: string;
  readonly groupLifePolicyId: string;
  /** The covered loan and member a claim is made against. */
  readonly loanId: string;
  readonly memberId: string;
  readonly memberNrc: string;
  /** The reference the motor policy was paid with, its loans' batch, and a claim (or ''). */
  readonly paymentReference: string;
  readonly batchId: string;
  readonly claimId: string;
}

type PromiseLogic = { config: (args: Record<string, unknown>) => Promise<unknown> };

/** Calls a flow's production actor (the one the engine runs) once, outside any machine. */
function callActor(machine: AnyStateMachine, name: string, input: unknown): Promise<unknown> {
  const logic = (machine.implementations.actors as Record<string, PromiseLogic | undefined>)[name];
  if (!logic) throw new Error(`no actor ${name}`);
  return logic.config({ input, signal: new AbortController().signal, emit: () => {} });
}

/** The holder's second car, registered by {@link prepare} with no cover: new cover is for it. */
const UNINSURED_PLATE = 'AJQ 1910';

/** The seeded plate typed for new cover becomes the holder's uninsured car (renewal keeps it). */
const newCoverPlate: Rewrite = (reply, _index, before) =>
  reply.type === 'user.text' &&
  reply.text === SEED.vehicle.registrationNumber &&
  before?.context.prompt.key === 'motor.askPlate'
    ? { ...reply, text: UNINSURED_PLATE }
    : reply;

/** A fresh plate, NRC and number per replayed path. */
const unique = (index: number) => String(10_000 + index).slice(1);

/** The loan a claim is made against (walk) and the one already claimed (seed). */
const CLAIM_LOAN = 'KL-1';
const CLAIMED_LOAN = 'KL-2';
const MEMBER_NRC = '555555/10/1';
const CLAIMED_MEMBER_NRC = '555555/10/2';
/** Loans and members start before the model's loss date (10 January 2025). */
const GROUP_LIFE_START = '2025-01-01';

function loanRow(reference: string, nrcNumber: string) {
  return {
    fullName: 'Walk Borrower',
    nrcNumber,
    dateOfBirth: '1985-05-05',
    amount: 15_000,
    startDate: '2025-01-01',
    endDate: '2027-12-31',
    partnerLoanReference: reference,
    interestRate: 0.28,
  };
}

function memberRow(nrcNumber: string) {
  return { fullName: 'Walk Member', nrcNumber, dateOfBirth: '1985-05-05', annualSalary: 60_000 };
}

/**
 * Prepares a sandbox the way every replayed path needs it: a motor policy on the seeded vehicle
 * (renewal), a credit-life policy with covered loans and a group-life policy with covered members
 * (the funeral principal's among them, for cover status), and optionally a claim on each line.
 */
async function prepare(world: SandboxWorld, setup: WorldSetup): Promise<Prepared> {
  const { client } = world;
  const holder = (
    await client.call('getIndividuals', {
      query: { PhoneNumber: SEED.individual.phoneNumber, PageSize: 1 },
    })
  ).data[0];
  const [vehicle] = await client.call('searchVehicleByRegistration', {
    query: { registrationNumber: SEED.vehicle.registrationNumber },
  });
  if (!holder || !vehicle) throw new Error('the sandbox lost its seed');
  const quote = await client.call('createMotorQuotation', {
    body: {
      productId: '101',
      duration: 4,
      currency: 'ZMW',
      startDate: insurerToday(),
      clientId: String(holder.id),
      risks: [{ vehicleId: String(vehicle.id) }],
    },
  });
  const paymentReference = `SEED-${String(quote.id)}`;
  await client.call('payQuotation', {
    path: { quoteId: String(quote.id) },
    body: { reference: paymentReference, payment: { method: 'External' } },
  });
  // The seeded car is insured now (renewal): new cover is bought for a second car of the
  // holder's, with none in force ("already insured" otherwise, issue 36).
  await client.call('createVehicle', {
    path: { id: String(holder.id) },
    body: {
      make: 'Toyota',
      model: 'Corolla',
      yearOfManufacture: 2018,
      registrationNumber: UNINSURED_PLATE,
      chassisNumber: 'NZE161WALK',
      engineNumber: '1NZWALK',
      motorRiskCategoryId: 'mrc_private',
    },
  });

  const creditQuotation = (await client.call('getCreditLifeQuotations')).find(
    (q) => q.status === 'Approved' && !q.requiresPrepayment,
  );
  const groupQuotation = (await client.call('getGroupLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  if (!creditQuotation || !groupQuotation) throw new Error('the sandbox lost its quotations');
  // Started ten days ago: its first period is unpaid but in grace (30 days), so cover reads "in
  // grace", and the losses the walk types (3 and 5 days ago) fall after cover began.
  const credit = await client.call('createCreditLifePolicy', {
    body: { quotationId: String(creditQuotation.id), startDate: daysAgo(10).iso },
  });
  const batch = await client.call('placeLoans', {
    path: { policyId: credit.id },
    body: {
      loans: [
        loanRow(CLAIM_LOAN, '444444/10/1'),
        loanRow(CLAIMED_LOAN, '444444/10/2'),
        loanRow('KL-COVER', SEED.funeralPrincipalNrc),
      ],
    },
  });
  const loan = batch.loans?.find((l) => l.partnerLoanReference === CLAIM_LOAN);
  const group = await client.call('createGroupLifePolicy', {
    body: { quotationId: String(groupQuotation.id), startDate: GROUP_LIFE_START },
  });
  await client.call('enrolGroupLifeBatch', {
    path: { policyId: group.id },
    body: {
      members: [
        memberRow(MEMBER_NRC),
        memberRow(CLAIMED_MEMBER_NRC),
        memberRow(SEED.funeralPrincipalNrc),
      ],
    },
  });
  const member = await client.call('getCoveredMemberByNrc', {
    path: { policyId: group.id },
    query: { nrcNumber: MEMBER_NRC },
  });
  if (!loan) throw new Error('the sandbox placed no loan');
  // The walk's borrowers and members are on record with the demo borrower's phone, the claim
  // walks' caller: the claims they make and track are their own (src/access).
  for (const nrc of ['444444/10/1', '444444/10/2', MEMBER_NRC, CLAIMED_MEMBER_NRC]) {
    await client.call('createIndividual', {
      body: {
        firstName: 'Walk',
        lastName: 'Claimant',
        phoneNumber: DEMO_BOOK.creditLife.borrower.phoneNumber,
        email: 'walk@example.com',
        idNumber: nrc,
        idType: 'NRC',
      },
    });
  }
  if (setup.holderPhone) {
    await client.call('updateIndividual', {
      path: { id: String(holder.id) },
      body: { phoneNumber: setup.holderPhone },
    });
  }
  let claimId = '';
  if (setup.claims ?? true) {
    const claim = await client.call('intimateCreditLifeClaim', {
      path: { policyId: credit.id },
      body: { partnerLoanReference: CLAIMED_LOAN, claimType: 'Death', lossDate: daysAgo(3).iso },
    });
    await client.call('intimateGroupLifeClaim', {
      path: { policyId: group.id },
      body: { nrcNumber: CLAIMED_MEMBER_NRC, lossDate: '2025-03-01', causeOfDeath: 'Illness' },
    });
    claimId = String(claim.id);
  }
  return {
    creditLifePolicyId: credit.id,
    groupLifePolicyId: group.id,
    loanId: String(loan.id),
    memberId: String(member.id),
    memberNrc: MEMBER_NRC,
    paymentReference,
    batchId: String(batch.id),
    claimId,
  };
}

/** A sandbox world set up as `setup` says and prepared for the walk. */
export async function openWorld(
  setup: WorldSetup,
): Promise<{ world: SandboxWorld; prepared: Prepared | null }> {
  const world = await startSandboxWorld(setup);
  if (setup.outage) return { world, prepared: null };
  return { world, prepared: await prepare(world, setup) };
}

/** Six motor products: two pages at the flow's five per page. */
const PAGED_CATALOGUE = {
  motor: [
    ...MOTOR_PRODUCTS,
    ...[4, 5, 6].map((n) => ({
      ...MOTOR_PRODUCTS[0],
      id: 100 + n,
      name: `Motor Third Party ${n}`,
    })),
  ] as typeof MOTOR_PRODUCTS,
};

/** What the sandbox answers the motor flow's data look-ups with, read through its actors. */
async function motorData(world: SandboxWorld): Promise<Impl> {
  const motor = flows(world)['motor-quote'].machine;
  const pages = new Map<number, { products: { id: string; needsSumInsured: boolean }[] }>();
  for (let page = 1; ; page += 1) {
    const found = (await callActor(motor, 'listProducts', { page, pageSize: 5 })) as {
      products: { id: string; needsSumInsured: boolean }[];
      hasMore: boolean;
    };
    pages.set(page, found);
    if (!found.hasMore) break;
  }
  const categories = await callActor(motor, 'listRiskCategories', {});
  const pricing = new Map<string, unknown>();
  for (const product of [...pages.values()].flatMap((p) => p.products)) {
    pricing.set(
      product.id,
      await callActor(motor, 'priceMotor', {
        productId: product.id,
        riskCategoryId: 'mrc_private',
        startDate: insurerToday(),
        ...(product.needsSumInsured ? { sumInsured: 150_000 } : {}),
      }),
    );
  }
  const policy = await callActor(motor, 'findPolicy', {
    plate: SEED.vehicle.registrationNumber,
    principal: HOLDER,
  });
  const renewal = policy
    ? await callActor(motor, 'renewalPremiums', {
        policyId: (policy as { policyId: string }).policyId,
      })
    : null;
  return {
    listProducts: (input: { page: number }) => pages.get(input.page) ?? pages.get(1),
    listRiskCategories: () => categories,
    priceMotor: (input: { productId: string }) => pricing.get(input.productId) ?? [],
    findPolicy: () => policy,
    renewalPremiums: () => renewal,
    // The sandbox quotes the price it showed: paid at once with the method chosen.
    createQuote: (input: { productId: string; duration: number }) => {
      const options = (pricing.get(input.productId) ?? []) as { duration: number; gross: number }[];
      const gross = options.find((o) => o.duration === input.duration)?.gross ?? 0;
      return { quoteId: 'q_1', premium: gross, currency: 'ZMW', purchase: 'quote:q_1.k' };
    },
  };
}

/** The flows over a world's insurer and its holdings index, as its engine runs them. */
function flows(world: SandboxWorld) {
  return createFlowRegistry({
    client: world.client,
    holdings: world.holdings,
    payments: {
      start: async () => ({ reference: 'unused', status: 'Pending' }),
      check: async () => 'pending',
    },
    sms: async () => undefined,
  });
}

/** Answers on a payment screen come from `msisdn` (its last digit sets the sandbox's outcome). */
function payFrom(msisdn: string): Rewrite {
  return (reply, _index, before) => {
    if (before?.context.prompt.key !== 'pay.askPhone') return reply;
    if (reply.type === 'user.text' && reply.text === '0971234567')
      return { ...reply, text: msisdn };
    if (reply.type === 'user.contact') return { ...reply, phone: msisdn };
    return reply;
  };
}

/** Rewrites typed answers found in `table`. */
function typed(
  table: (index: number, before: FlowSnapshot | undefined) => Record<string, string>,
): Rewrite {
  return (reply, index, before) =>
    reply.type === 'user.text'
      ? { ...reply, text: table(index, before)[reply.text] ?? reply.text }
      : reply;
}

function both(...rewrites: Rewrite[]): Rewrite {
  return (reply, index, before) => rewrites.reduce((r, f) => f(r, index, before), reply);
}

const DECLINING = '0971234561';
/** A phone on record for nobody. */
const STRANGER_PHONE = '260955000001';
const STRANGER: Principal = { kind: 'phone', phone: STRANGER_PHONE };
/** The seeded motor holder, calling from the phone on record. */
const HOLDER: Principal = { kind: 'phone', phone: SEED.individual.phoneNumber };
/** An NRC nobody holds. */
const UNKNOWN_NRC = '999999/99/1';
/**
 * An address that is no phone number: the engine vouches for no caller, as on a chat, so
 * cover-status asks for a shared contact the way the model walks it.
 */
const CHAT_CALLER = 'chat-user';

/**
 * Lines every model world up with a sandbox: each world names the sandbox its paths run against
 * (one fresh, identically prepared insurer per path, so no path sees another's records), and its
 * stand-ins are read from a template of that sandbox through the very actors the engine runs.
 */
export async function alignWorlds(): Promise<SandboxAlignment> {
  const standard: WorldSetup = {};
  const paged: WorldSetup = { catalogue: PAGED_CATALOGUE };
  const atOnce: WorldSetup = { settleAtOnce: true };
  const noPackages: WorldSetup = { catalogue: { travel: [] } };
  const noClaims: WorldSetup = { claims: false };
  // The holder pays from a number the sandbox declines.
  const declining: WorldSetup = { holderPhone: `26${DECLINING}` };
  const decliningAtOnce: WorldSetup = { ...declining, settleAtOnce: true };

  const template = await openWorld(standard);
  const pagedTemplate = await openWorld(paged);
  const bareTemplate = await openWorld(noClaims);
  const registry = flows(template.world);
  const prepared = template.prepared;
  if (!prepared) throw new Error('the template was not prepared');
  const motor = await motorData(template.world);
  const motorPaged = await motorData(pagedTemplate.world);
  const uncategorised = await callActor(registry['motor-quote'].machine, 'findVehicle', {
    plate: SEED.uncategorisedPlate,
    principal: HOLDER,
  });
  const packages = await callActor(registry['travel-issue'].machine, 'listPackages', {});
  const cover = registry['cover-status'].machine;
  // The seeded holder asks about their own cover (their phone is on record for their NRC); a
  // phone on record nowhere asks about the holder's NRC, then about an NRC nobody holds.
  const holderPhone = SEED.individual.phoneNumber;
  const mine = await callActor(cover, 'lookupMine', { phone: holderPhone });
  const ownNrc = await callActor(cover, 'lookupCover', {
    nrc: SEED.individual.idNumber,
    principal: HOLDER,
  });
  const nobodysMine = await callActor(cover, 'lookupMine', { phone: STRANGER_PHONE });
  const strangerView = await callActor(cover, 'lookupCover', {
    nrc: SEED.individual.idNumber,
    principal: STRANGER,
  });
  const nothing = await callActor(cover, 'lookupCover', {
    nrc: UNKNOWN_NRC,
    principal: STRANGER,
  });
  const coverReplies = (phone: string, nrc: string): Rewrite =>
    both(
      (reply) => (reply.type === 'user.contact' ? { ...reply, phone } : reply),
      typed(() => ({ '479974111': nrc.replaceAll('/', '') })),
    );
  const claims = registry['claim-intimation'].machine;
  // A claim starts from the demo borrower's own loans, found from the phone they call from.
  const borrowerPhone = DEMO_BOOK.creditLife.borrower.phoneNumber;
  const borrowerCaller = `0${borrowerPhone.slice(3)}`;
  const borrower: Principal = { kind: 'phone', phone: borrowerPhone };
  const claimsOf = async (machine: AnyStateMachine) => ({
    'credit-life': await callActor(machine, 'trackClaims', {
      line: 'credit-life',
      principal: borrower,
    }),
    'group-life': await callActor(machine, 'trackClaims', {
      line: 'group-life',
      principal: borrower,
    }),
  });
  const tracked = await claimsOf(claims);
  const mineTracked = await callActor(claims, 'myClaims', { principal: borrower });
  const mineTrackedBare = await callActor(
    flows(bareTemplate.world)['claim-intimation'].machine,
    'myClaims',
    { principal: borrower },
  );
  const trackedBare = await claimsOf(flows(bareTemplate.world)['claim-intimation'].machine);
  const claimDetail = await callActor(claims, 'getClaim', {
    line: 'credit-life',
    claimId: (tracked['credit-life'] as { id: string }[])[0]?.id,
    principal: borrower,
  });
  const intimatedBare = await callActor(
    flows(bareTemplate.world)['claim-intimation'].machine,
    'intimateClaim',
    {
      line: 'credit-life',
      policyId: bareTemplate.prepared?.creditLifePolicyId,
      by: 'partnerLoanReference',
      subject: CLAIM_LOAN,
      claimType: 'death',
      eventDate: daysAgo(5).iso,
      details: 'Accident on the road',
      principal: borrower,
    },
  );
  const held = await callActor(claims, 'heldCover', { principal: borrower });
  // What the open-claim check answers for each loan or member held (one has a claim open in the
  // seeded book); a loan or member typed in the walk has none.
  const openByHeld = new Map<string, unknown>();
  for (const h of (held as { held: HeldCover[] }).held) {
    const asked = { line: h.line, policyId: h.policyId, by: h.by, subject: h.subject };
    openByHeld.set(
      h.subject,
      await callActor(claims, 'openClaim', { ...asked, principal: borrower }),
    );
  }
  const openClaim = (input: { subject?: string }) => openByHeld.get(input.subject ?? '') ?? null;
  // "Track that claim" finds the open claim by its number, in every world the demo book seeds.
  const foundOpen = new Map<string, unknown>();
  for (const open of openByHeld.values()) {
    const number = (open as { number?: string } | null)?.number;
    if (number)
      foundOpen.set(number, await callActor(claims, 'findClaim', { number, principal: borrower }));
  }
  const claimNumber = (tracked['credit-life'] as { number: string }[])[0]?.number ?? '';
  const found = await callActor(claims, 'findClaim', { number: claimNumber, principal: borrower });
  // Someone else's claim, typed by its number from a phone on record nowhere.
  const foundByStranger = await callActor(claims, 'findClaim', {
    number: claimNumber,
    principal: STRANGER,
  });
  for (const t of [template, pagedTemplate, bareTemplate]) await t.world.close();

  // Mobile-money payments in the sandbox come back pending and settle when the walk says so.
  const pending = {
    startPayment: () => ({ reference: 'PAY-q_1', status: 'pending' }),
    paymentStatus: (input: { reference?: string }) => ({
      reference: input.reference ?? 'PAY-q_1',
      status: 'pending',
    }),
  };
  const issuedPending = {
    startPayment: () => ({ reference: 'PAY-tq_1', status: 'pending' }),
  };
  const unknownPlate = (i: number) => ({
    'AJQ 1909': `ABZ ${unique(i)}`,
    '479974111': `11${unique(i)}111`,
  });
  const claimTexts = (_i: number, before: FlowSnapshot | undefined): Record<string, string> => ({
    pol_1:
      before?.context.answers?.line === 'group-life'
        ? prepared.groupLifePolicyId
        : prepared.creditLifePolicyId,
    L1: prepared.loanId,
    M1: prepared.memberId,
    '479974111': prepared.memberNrc.replaceAll('/', ''),
    'CLC-000001': claimNumber,
  });
  const claimImpl = (lists: Record<string, unknown>, bare = false): Impl => ({
    trackClaims: (input: { line: string }) => lists[input.line] ?? [],
    getClaim: () => claimDetail,
    heldCover: () => held,
    findClaim: () => (bare ? null : found),
  });

  // The desk's look-ups name records the sandbox holds.
  const staffTexts: Record<string, string> = {
    'policy ABC123': `policy ${SEED.vehicle.registrationNumber}`,
    'claim 42': `claim ${prepared.claimId}`,
    'confirm 42': `confirm ${prepared.claimId}`,
    '42': prepared.claimId,
    'txn REF1': `txn ${prepared.paymentReference}`,
    REF1: prepared.paymentReference,
    'batch P1 B1': `batch ${prepared.creditLifePolicyId} ${prepared.batchId}`,
    'P1 B1': `${prepared.creditLifePolicyId} ${prepared.batchId}`,
    'bordereau P1': `bordereau ${prepared.creditLifePolicyId}`,
    P1: prepared.creditLifePolicyId,
  };

  const worlds: Record<string, AlignedWorld> = {
    // The engine's reminders offer the seeded vehicle's policy (sandbox-world.ts): so does the model.
    'main-menu:typical': {
      sandbox: standard,
      impl: { holderOffers: () => seededMotorOffers(template.world.sandbox) },
    },
    'main-menu:noRenewalDue': { sandbox: { noRenewalDue: true } },
    'main-menu:remindersOff': { sandbox: { remindersOff: true } },
    'main-menu:noticeNotAgreed': {
      sandbox: { noticeNotAgreed: true },
      impl: { holderOffers: () => seededMotorOffers(template.world.sandbox) },
    },
    'main-menu:severalRenewalsDue': {
      sandbox: { severalRenewalsDue: true },
      impl: {
        holderOffers: () => {
          const seeded = seededMotorOffers(template.world.sandbox);
          return { ...seeded, offers: [...seeded.offers, SECOND_OFFER] };
        },
      },
    },
    'motor-quote:typical': {
      sandbox: standard,
      impl: { ...motor, ...pending },
      reply: newCoverPlate,
    },
    'motor-quote:paged': {
      sandbox: paged,
      impl: { ...motorPaged, ...pending },
      reply: newCoverPlate,
    },
    'motor-quote:unknownVehicleAndHolder': {
      sandbox: standard,
      // The plate is rewritten to one the sandbox does not know, renewal included.
      impl: { ...motor, ...pending, findPolicy: () => null },
      reply: typed(unknownPlate),
      caller: (i) => `09770${unique(i)}9`,
    },
    'motor-quote:paidAtOnce': { sandbox: atOnce, impl: motor, reply: newCoverPlate },
    // The holder types the seeded car, insured by prepare(): "already insured", then Renew.
    'motor-quote:alreadyInsured': { sandbox: standard, impl: { ...motor, ...pending } },
    'motor-quote:vehicleWithoutCategory': {
      sandbox: decliningAtOnce,
      impl: { ...motor, findVehicle: () => uncategorised, findPolicy: () => null },
      reply: both(
        typed(() => ({ 'AJQ 1909': SEED.uncategorisedPlate })),
        payFrom(DECLINING),
      ),
      caller: () => DECLINING,
    },
    'motor-quote:paidOnCheck': {
      sandbox: standard,
      impl: { ...motor, startPayment: pending.startPayment },
      reply: newCoverPlate,
      settle: true,
    },
    'motor-quote:failedOnCheck': {
      sandbox: declining,
      impl: { ...motor, startPayment: pending.startPayment },
      reply: both(newCoverPlate, payFrom(DECLINING)),
      caller: () => DECLINING,
      settle: true,
    },
    'travel-issue:typical': {
      sandbox: standard,
      impl: {
        listPackages: () => packages,
        ...issuedPending,
        paymentStatus: pending.paymentStatus,
      },
    },
    'travel-issue:paid': { sandbox: atOnce, impl: { listPackages: () => packages } },
    'travel-issue:failedAtOnce': {
      sandbox: atOnce,
      impl: { listPackages: () => packages },
      reply: payFrom(DECLINING),
      caller: () => DECLINING,
    },
    'travel-issue:checkPaid': {
      sandbox: standard,
      impl: { listPackages: () => packages, ...issuedPending },
      settle: true,
    },
    'travel-issue:checkFailed': {
      sandbox: standard,
      impl: { listPackages: () => packages, ...issuedPending },
      reply: payFrom(DECLINING),
      caller: () => DECLINING,
      settle: true,
    },
    'travel-issue:noPackages': { sandbox: noPackages },
    'claim-intimation:typical': {
      sandbox: standard,
      impl: { ...claimImpl(tracked), openClaim, myClaims: () => mineTracked },
      reply: typed(claimTexts),
      caller: () => borrowerCaller,
    },
    'claim-intimation:noClaims': {
      sandbox: noClaims,
      // The sandbox always answers a claim with its payable breakdown.
      impl: {
        ...claimImpl(trackedBare, true),
        intimateClaim: () => intimatedBare,
        myClaims: () => mineTrackedBare,
        // The demo book is seeded here too: its claim is open on the first loan held.
        openClaim,
        findClaim: (input: { number?: string }) => foundOpen.get(input.number ?? '') ?? null,
      },
      // No claim holds this number, in this world as in the model's.
      reply: typed((i, before) => ({ ...claimTexts(i, before), 'CLC-000001': 'CLC-NONE-0000' })),
      caller: () => borrowerCaller,
    },
    // A phone on record nowhere: no claims of its own, someone else's by number shows its status,
    // and a claim it reports (a relative's death) is its own to follow but pays out to no one it
    // is shown to.
    'claim-intimation:someoneElses': {
      sandbox: standard,
      impl: {
        trackClaims: () => [],
        myClaims: () => [],
        heldCover: () => ({ held: [], truth: 'none' }),
        getClaim: () => claimDetail,
        findClaim: () => foundByStranger,
      },
      reply: typed(claimTexts),
      caller: () => `0${STRANGER_PHONE.slice(3)}`,
    },
    'cover-status:typical': {
      sandbox: standard,
      impl: { lookupMine: () => mine, lookupCover: () => ownNrc },
      reply: coverReplies(holderPhone, SEED.individual.idNumber),
      caller: () => CHAT_CALLER,
    },
    'cover-status:nothing': {
      sandbox: standard,
      impl: { lookupMine: () => nobodysMine, lookupCover: () => nothing },
      reply: coverReplies(STRANGER_PHONE, UNKNOWN_NRC),
      caller: () => CHAT_CALLER,
    },
    'cover-status:stranger': {
      sandbox: standard,
      impl: { lookupMine: () => nobodysMine, lookupCover: () => strangerView },
      reply: coverReplies(STRANGER_PHONE, SEED.individual.idNumber),
      caller: () => CHAT_CALLER,
    },
    'staff-desk:typical': {
      sandbox: standard,
      reply: typed(() => ({
        ...staffTexts,
        'household 479974/11/1': `household ${SEED.funeralPrincipalNrc}`,
      })),
    },
    'staff-desk:noHousehold': { sandbox: standard, reply: typed(() => staffTexts) },
    // Numbers the sandbox has never issued: every lookup finds nothing.
    'staff-desk:nothingFound': {
      sandbox: standard,
      reply: typed(() => ({
        ...staffTexts,
        'household 479974/11/1': `household ${SEED.funeralPrincipalNrc}`,
        'policy ABC123': 'policy NO-SUCH-1',
        'AJQ 1909': 'ZZZ 9999',
        'claim 42': 'claim CLC-999999',
        'confirm 42': 'confirm CLC-999999',
        '42': 'CLC-999999',
        'txn REF1': 'txn NO-SUCH-REF',
        REF1: 'NO-SUCH-REF',
      })),
    },
  };
  const world = (flow: FlowId, variant: string): AlignedWorld => {
    if (variant === DOWN) {
      // Callers the index names (synced before the outage): their look-ups must reach the insurer.
      if (flow === 'cover-status') return { sandbox: { outage: true }, caller: () => CHAT_CALLER };
      if (flow === 'claim-intimation')
        return { sandbox: { outage: true }, caller: () => borrowerCaller };
      return { sandbox: { outage: true } };
    }
    const own = worlds[`${flow}:${variant}`];
    if (!own) throw new Error(`no sandbox world for ${flow} (${variant})`);
    return own;
  };
  return {
    world,
    machine: (flow) => worldMachine(flow, { overrides: worlds[`${flow}:typical`]?.impl ?? {} }),
  };
}

/** The world where the insurer is down: every call answered 500. */
export const DOWN = 'insurer down';
