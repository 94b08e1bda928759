import type { AnyStateMachine } from 'xstate';
import type { ClaimSummary, HeldCover } from '../../flows/claim-intimation.js';
import { claimIntimationMachine } from '../../flows/claim-intimation.js';
import type { CoverAnswer, Holding } from '../../flows/cover-status.js';
import { coverStatusMachine } from '../../flows/cover-status.js';
import type { FlowId } from '../../flows/index.js';
import { mainMenuMachine } from '../../flows/main-menu.js';
import { motorQuoteMachine } from '../../flows/motor-quote.js';
import { myDataMachine } from '../../flows/my-data.js';
import { type PaymentStarted, providedPayment } from '../../flows/payment-machine.js';
import { staffDeskMachine } from '../../flows/staff-desk.js';
import { travelIssueMachine } from '../../flows/travel-issue.js';
import { NOBODY, type Principal } from '../../src/access/index.js';
import { dateOfDay, dayNumber, lusakaToday } from '../../src/clock/index.js';
import type { FlowStartInput } from '../../src/conversation/flow.js';
import type { Reply } from '../../src/conversation/reply.js';
import { SANDBOX_PRIVACY_NOTICE } from '../../src/privacy/index.js';
import type { FlowSnapshot } from './harness.js';
import { apiErrors, paymentChild, syncActor } from './harness.js';

/**
 * A date `days` before today, as the API takes it (`YYYY-MM-DD`) and as a user types it
 * (`DD/MM/YYYY`): claims must be intimated within the product's notification window, so loss
 * dates follow the clock instead of going stale.
 */
export function daysAgo(days: number): { iso: string; typed: string } {
  // Counted from today in Lusaka, as the flows count: from 22:00 UTC Lusaka is a day ahead.
  const iso = dateOfDay(dayNumber(lusakaToday()) - days);
  const [year, month, day] = iso.split('-');
  return { iso, typed: `${day}/${month}/${year}` };
}

// Synchronous stand-ins for the API actors, in "worlds": each world is one consistent insurer
// (vehicle known or not, payment pending or paid...). Walking every world reaches every state.

/** Synchronous stand-ins for a flow's API actors, by actor name. */
export type Impl = Record<string, (input: never) => unknown>;

const holdings: Holding[] = [
  {
    line: 'motor',
    number: 'MTR-0001',
    status: 'Active',
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    covers: 'AJQ 1909',
    amount: 693,
    currency: 'ZMW',
    policyId: 'pol_1',
  },
  {
    line: 'group-life',
    number: 'GL-0001',
    status: 'Active',
    startDate: '2026-01-01',
    endDate: '2026-12-31',
    covers: 'Mwila Banda',
    amount: 250000,
    currency: 'ZMW',
    policyId: 'glp_1',
    subjectId: 'mem_1',
  },
  {
    line: 'credit-life',
    number: 'KL-1',
    status: 'InGrace',
    until: '2026-02-14',
    startDate: '2026-01-01',
    endDate: '2027-01-31',
    covers: 'CL-0001',
    amount: 15000,
    currency: 'ZMW',
    policyId: 'clp_1',
    subjectId: 'loan_1',
  },
  {
    // Ends within a month: My cover offers to renew it.
    line: 'motor',
    number: 'MTR-0002',
    status: 'Active',
    startDate: daysAgo(355).iso,
    endDate: daysAgo(-10).iso,
    covers: 'BCD 4321',
    amount: 693,
    currency: 'ZMW',
    policyId: 'pol_2',
  },
];

const household = {
  principal: 'Mwila Banda',
  policyNumber: 'GF-0001',
  status: 'Active',
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  premium: 120,
  currency: 'ZMW',
};

const fullCover: CoverAnswer = { access: 'full', holdings, truth: 'found' };
const noCover: CoverAnswer = { access: 'full', holdings: [], truth: 'none' };
const strangerView: CoverAnswer = {
  access: 'limited',
  truth: 'found',
  until: '2026-12-31',
  canSendDetails: true,
};

const claim: ClaimSummary = {
  id: 'clm_1',
  number: 'CLC-000001',
  status: 'Intimated',
  payable: 15000,
  currency: 'ZMW',
  mine: true,
};

const held: HeldCover[] = [
  {
    line: 'credit-life',
    policyId: 'clp_1',
    by: 'loanId',
    subject: 'loan_1',
    number: 'KL-1',
    covers: 'CL-0001',
  },
  {
    line: 'group-life',
    policyId: 'glp_1',
    by: 'memberId',
    subject: 'mem_1',
    number: 'GL-0001',
    covers: 'Mwila Banda',
  },
];

const pending = (reference: string): PaymentStarted => ({ reference, status: 'pending' });

/**
 * The renewal the typical holder is offered first in the menu (their reminders on); the engine
 * walks line it up with the sandbox's seeded policy (sandbox-alignment.ts).
 */
export const HOLDER_OFFERS = {
  offers: [{ policyId: 'pol_1', policyNumber: 'MTR-0001', endDate: '2026-01-25' }],
  remindersOn: true,
};

/** A second renewal due, after the first: the menu lists both behind one entry. */
export const SECOND_OFFER = {
  policyId: 'pol_2',
  policyNumber: 'MTR-0002',
  endDate: '2026-01-28',
};

/** The payment child let go of a handset's call: `payment.proceed` (id `go-1`) starts it later. */
const LET_GO = { payLater: () => ({ later: true, id: 'go-1' }) };

/**
 * The worlds of a paying flow on a handset since issue 38: the call let go before the PIN prompt,
 * the pay request sent once `payment.proceed` comes, its outcome pushed (see pushedReplies);
 * and the insurer refusing the pay request.
 */
const HANDSET_WORLDS: Record<string, Impl> = {
  callLetGo: LET_GO,
  payRefused: {
    ...LET_GO,
    startPayment: () => {
      throw apiErrors.fieldErrors;
    },
  },
};

/** Every API actor of every flow, with a typical answer. */
const BASE: Record<FlowId, Impl> = {
  'main-menu': {
    holderOffers: () => HOLDER_OFFERS,
    stopReminders: () => undefined,
    startReminders: () => undefined,
    consented: () => ({ agreed: true, notice: SANDBOX_PRIVACY_NOTICE }),
    agree: () => undefined,
    decline: () => undefined,
  },
  'my-data': {
    held: () => ({
      policies: 1,
      reminderCard: true,
      handoffs: 0,
      files: 2,
      payments: 0,
      address: '+xxxxxxxxx567',
      nrcs: ['xxxxxx/xx/x'],
      policyNumbers: ['MTR-0001'],
      consentedOn: '2026-11-20',
    }),
    erase: () => ({ paymentsKept: 0 }),
  },
  'motor-quote': {
    // As the sandbox seeds them.
    listProducts: () => ({
      products: [
        { id: '101', name: 'Motor Third Party', needsSumInsured: false },
        { id: '102', name: 'Motor Third Party, Fire and Theft', needsSumInsured: true },
        { id: '103', name: 'Motor Comprehensive', needsSumInsured: true },
      ],
      hasMore: false,
    }),
    findVehicle: () => ({
      vehicleId: 'veh_1',
      riskCategoryId: 'mrc_private',
      description: 'Toyota Corolla',
    }),
    listRiskCategories: () => [
      { id: 'mrc_private', name: 'Private' },
      { id: 'mrc_psv', name: 'Public Service Vehicle' },
    ],
    priceMotor: () => [
      { duration: 1, label: '1 quarter', basic: 165, levy: 8.25, gross: 173.25, currency: 'ZMW' },
      {
        duration: 4,
        label: '4 quarters',
        basic: 660,
        levy: 33,
        gross: 693,
        currency: 'ZMW',
        endDate: '2027-11-27',
      },
    ],
    findHolder: () => ({ clientId: 'cli_1', name: 'Mwila Banda' }),
    sendCode: () => ({ sent: true }),
    checkCode: () => ({ outcome: 'right' }),
    registerHolder: () => ({ clientId: 'cli_2', name: 'New Holder' }),
    registerVehicle: () => ({ vehicleId: 'veh_2' }),
    createQuote: () => ({
      quoteId: 'q_1',
      premium: 173.25,
      currency: 'ZMW',
      purchase: 'quote:q_1.k',
    }),
    startPayment: () => ({ ...pending('PAY-q_1'), redirectUrl: 'https://pay.test/3ds' }),
    paymentStatus: (input: { reference: string }) => pending(input.reference),
    findPolicy: () => ({ policyId: 'pol_1', policyNumber: 'MTR-0001' }),
    renewalPremiums: () => ({
      gross: 693,
      currency: 'ZMW',
      startDate: '2026-02-01',
      endDate: '2027-01-31',
      purchase: 'renew:pol_1.k',
    }),
    motorCertificate: () => ({
      policyNumber: 'MTR-0002',
      startDate: '2026-02-01',
      endDate: '2027-01-31',
      url: 'https://files.test/cert.pdf',
    }),
  },
  'travel-issue': {
    listPackages: () => [
      { id: '201', name: 'Africa Explorer' },
      { id: '202', name: 'Worldwide Standard' },
    ],
    quoteTravel: (input: { requests: Array<{ packageId: string }> }) =>
      input.requests.map((r, i) => ({
        packageId: r.packageId,
        quoteId: `tq_${i + 1}`,
        premium: 450 + i * 100,
        currency: 'ZMW',
        purchase: `quote:tq_${i + 1}.k`,
      })),
    startPayment: () => pending('PAY-tq_1'),
    paymentStatus: (input: { reference: string }) => pending(input.reference),
    travelCertificate: () => ({
      policyId: 'tp_1',
      policyNumber: 'TRV-0001',
      startDate: '2099-01-15',
      endDate: '2099-01-29',
      url: 'https://files.test/travel.pdf',
    }),
  },
  'claim-intimation': {
    intimateClaim: () => claim,
    attachDocuments: () => ({ ...claim, status: 'Documented' }),
    trackClaims: () => [claim, { ...claim, id: 'clm_2', number: 'CLC-000002' }],
    myClaims: () => [
      { ...claim, line: 'credit-life' },
      { ...claim, id: 'clm_2', number: 'CLC-000002', line: 'credit-life' },
    ],
    getClaim: () => claim,
    heldCover: () => ({ held, truth: 'found' }),
    findClaim: () => ({ ...claim, line: 'credit-life' }),
    claimTerms: () => ({
      scopes: [
        // The sandbox catalogue's credit-life scopes of cover, as the engine walk meets them.
        { name: 'Death', requirements: ['Death certificate', 'Loan statement'] },
        { name: 'Permanent disability', requirements: ['Medical report', 'Loan statement'] },
        { name: 'Retrenchment', requirements: ['Termination letter'] },
      ],
      notificationDays: 90,
    }),
    sendUploadLink: () => ({ sent: true }),
    openClaim: () => null,
  },
  'cover-status': {
    lookupMine: () => fullCover,
    lookupCover: () => fullCover,
    sendDetails: () => ({ sent: true }),
    certificate: () => ({ url: 'https://files.test/cert.pdf' }),
  },
  'staff-desk': {
    findPolicy: () => ({
      policyNumber: 'MTR-0001',
      status: 'Active',
      product: 'Motor Third Party',
      holder: 'Mwila Banda',
      plate: 'AJQ 1909',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      premium: 693,
      currency: 'ZMW',
      paymentStatus: 'Paid',
    }),
    getClaim: () => ({ id: 'CLC-1', line: 'credit-life', status: 'Intimated', currency: 'ZMW' }),
    // The engine walk's claim was reported by no one through insurechat: nothing to confirm.
    confirmClaim: () => ({ id: 'CLC-1', confirmed: false, posted: 0 }),
    trackClaims: () => [
      { id: 'CLC-1', line: 'credit-life', status: 'Intimated', currency: 'ZMW' },
      { id: 'GLC-1', line: 'group-life', status: 'Documented', currency: 'ZMW' },
    ],
    transactionStatus: () => ({
      reference: 'REF1',
      status: 'Success',
      amount: 173.25,
      currency: 'ZMW',
      deliveries: 2,
      lastDelivery: '200',
    }),
    householdByNrc: () => ({
      ...household,
      members: [{ name: 'Mwila Banda', relationship: 'Principal', sumAssured: 15000 }],
    }),
    getBatch: () => ({
      line: 'credit-life',
      number: 'B-1',
      status: 'Approved',
      count: 3,
      grossPremium: 300,
      outstandingPremium: 300,
      currency: 'ZMW',
    }),
    bordereau: () => ({ url: 'https://files.test/b.csv', fileName: 'bordereau-P1.csv' }),
    todaySummary: () => ({
      date: '2026-01-15',
      paidPolicies: 2,
      paidTotal: 1386,
      currency: 'ZMW',
      claims: [{ id: 'CLC-1', line: 'credit-life', status: 'Intimated', currency: 'ZMW' }],
    }),
    syncHoldings: () => ({ complete: true }),
  },
};

/** Variations on BASE that lead to the states BASE alone cannot reach. */
const VARIANTS: Record<FlowId, Record<string, Impl>> = {
  'main-menu': {
    noRenewalDue: { holderOffers: () => ({ offers: [], remindersOn: true }) },
    remindersOff: {
      holderOffers: () => ({ offers: [], remindersOn: false, remindersOff: true }),
    },
    severalRenewalsDue: {
      holderOffers: () => ({ ...HOLDER_OFFERS, offers: [...HOLDER_OFFERS.offers, SECOND_OFFER] }),
    },
    // A caller who has not agreed to the current privacy notice: it comes before any flow.
    noticeNotAgreed: { consented: () => ({ agreed: false, notice: SANDBOX_PRIVACY_NOTICE }) },
  },
  'my-data': {
    paymentInFlight: { erase: () => ({ paymentsKept: 1 }) },
  },
  'motor-quote': {
    paged: {
      listProducts: (input: { page: number }) => ({
        products:
          input.page === 1
            ? [{ id: '101', name: 'Motor Third Party', needsSumInsured: false }]
            : [{ id: '103', name: 'Motor Comprehensive', needsSumInsured: true }],
        hasMore: input.page === 1,
      }),
    },
    unknownVehicleAndHolder: {
      findVehicle: () => null,
      findHolder: () => null,
      findPolicy: () => null,
    },
    paidAtOnce: {
      startPayment: () => ({ reference: 'PAY-q_1', status: 'paid' }),
    },
    // The NRC typed is the insurer's with another phone: a code proves it, or not.
    nrcOnRecordElsewhere: {
      findVehicle: () => null,
      findHolder: (input: { nrc?: string }) =>
        input.nrc ? { onRecordElsewhere: true, masked: '…567' } : null,
    },
    codeWrong: {
      findHolder: (input: { nrc?: string }) =>
        input.nrc ? { onRecordElsewhere: true, masked: '…567' } : null,
      checkCode: () => ({ outcome: 'wrong', triesLeft: 2 }),
    },
    codeSpent: {
      findHolder: (input: { nrc?: string }) =>
        input.nrc ? { onRecordElsewhere: true, masked: '…567' } : null,
      checkCode: () => ({ outcome: 'spent' }),
    },
    codeExpiredOrUnsent: {
      findHolder: (input: { nrc?: string }) =>
        input.nrc ? { onRecordElsewhere: true, masked: '…567' } : null,
      sendCode: () => ({ sent: false }),
      checkCode: () => ({ outcome: 'expired' }),
    },
    // The caller's own car: insured until next year, or a payment for it being confirmed.
    alreadyInsured: { findVehicle: () => ({ covered: 'insured', until: '2027-11-07' }) },
    paymentUnsettled: { findVehicle: () => ({ covered: 'unsettled' }) },
    // The insurer refuses to register the plate again (held under a client without cover).
    plateBlocked: { findVehicle: () => null, registerVehicle: () => ({ blocked: true }) },
    vehicleWithoutCategory: {
      findVehicle: () => ({ vehicleId: 'veh_1', description: 'Toyota Corolla' }),
      startPayment: () => ({ reference: 'PAY-q_1', status: 'failed' }),
    },
    paidOnCheck: {
      paymentStatus: (input: { reference: string }) => ({
        reference: input.reference,
        status: 'paid',
      }),
    },
    failedOnCheck: {
      paymentStatus: (input: { reference: string }) => ({
        reference: input.reference,
        status: 'failed',
      }),
    },
    ...HANDSET_WORLDS,
    // The quotation made at the pay step prices otherwise than the screen did.
    repricedAtPay: {
      ...LET_GO,
      createQuote: () => ({
        quoteId: 'q_2',
        premium: 999,
        currency: 'ZMW',
        purchase: 'quote:q_2.k',
      }),
    },
  },
  'travel-issue': {
    paid: {
      startPayment: () => ({ reference: 'PAY-tq_1', status: 'paid' }),
      travelCertificate: () => ({}),
    },
    failedAtOnce: {
      startPayment: () => ({ reference: 'PAY-tq_1', status: 'failed' }),
    },
    checkPaid: {
      paymentStatus: (input: { reference: string }) => ({
        reference: input.reference,
        status: 'paid',
      }),
    },
    checkFailed: {
      paymentStatus: (input: { reference: string }) => ({
        reference: input.reference,
        status: 'failed',
      }),
    },
    noPackages: { listPackages: () => [] },
    ...HANDSET_WORLDS,
  },
  'claim-intimation': {
    // A claim is open already for the loan or member named: the caller's own, then someone's.
    alreadyOpen: { openClaim: () => ({ number: 'CLC-000001' }) },
    openElsewhere: { openClaim: () => ({}) },
    noClaims: {
      trackClaims: () => [],
      myClaims: () => [],
      intimateClaim: () => ({ ...claim, payable: undefined }),
      heldCover: () => ({ held: [], truth: 'none' }),
      findClaim: () => null,
    },
    // A stranger's view: someone else's claim typed by number, a death reported for a relative.
    someoneElses: {
      trackClaims: () => [],
      myClaims: () => [],
      heldCover: () => ({ held: [], truth: 'none' }),
      // The reporter follows their report (documents) but is shown no payout.
      intimateClaim: () => ({
        id: 'clm_3',
        number: 'GLC-000003',
        status: 'Intimated',
        currency: 'ZMW',
        mine: true,
      }),
      findClaim: () => ({ ...claim, payable: undefined, mine: false, line: 'group-life' }),
    },
  },
  'cover-status': {
    nothing: { lookupMine: () => noCover, lookupCover: () => noCover },
    stranger: { lookupCover: () => strangerView },
  },
  'staff-desk': {
    noHousehold: { householdByNrc: () => null },
    nothingFound: {
      findPolicy: () => null,
      getClaim: () => null,
      confirmClaim: () => null,
      transactionStatus: () => null,
    },
  },
};

/** The machines under test, unprovided. */
export const MACHINES: Record<FlowId, AnyStateMachine> = {
  'main-menu': mainMenuMachine,
  'motor-quote': motorQuoteMachine,
  'travel-issue': travelIssueMachine,
  'claim-intimation': claimIntimationMachine,
  'cover-status': coverStatusMachine,
  'staff-desk': staffDeskMachine,
  'my-data': myDataMachine,
};

/** A member of the Slack desk, as the engine names one. */
export const STAFF: Principal = { kind: 'staff', member: 'U123' };

/** The input each flow starts with in tests. */
export function inputFor(flow: FlowId): FlowStartInput {
  const audience = flow === 'staff-desk' ? 'staff' : 'policyholder';
  // Today as the engine gives it: from the one clock, in Lusaka.
  const today = lusakaToday();
  // A chat user who has not shared a phone yet: the walk also passes the contact request.
  if (flow === 'cover-status') return { audience, locale: 'en', principal: NOBODY, today };
  if (flow === 'staff-desk') return { audience, locale: 'en', principal: STAFF, today };
  return {
    audience,
    locale: 'en',
    today,
    principal: { kind: 'phone', phone: '260971234567' },
    callerPhone: '260971234567',
  };
}

/**
 * Other ways a flow starts, walked beside the usual input: a claim made in a chat (photos in the
 * chat, no SMS link) and one handed over from My cover's "Make a claim".
 */
export function otherInputsFor(flow: FlowId): { name: string; input: FlowStartInput }[] {
  if (flow !== 'claim-intimation') return [];
  // A Telegram user who shared their own contact: verified, but no USSD number to text.
  const chat: FlowStartInput = {
    audience: 'policyholder',
    locale: 'en',
    today: lusakaToday(),
    principal: { kind: 'phone', phone: '260971234567' },
  };
  return [
    { name: 'chat', input: chat },
    // A Telegram chat that shared no contact: it must share one before reporting a claim.
    { name: 'chat, no contact', input: { ...chat, principal: NOBODY } },
    { name: 'from My cover', input: { ...chat, start: { claim: held[0] as HeldCover } } },
  ];
}

/** The payment child's own calls: a paying flow hands them to it, provided as `paymentMachine`. */
const PAYMENT_CALLS = new Set(['startPayment', 'paymentStatus', 'payLater']);
/**
 * Where nothing can send `payment.proceed` back (no scheduler), a handset's payment starts at
 * once: the worlds walk that unless a test gives its own `payLater`.
 */
const PAY_AT_ONCE = { payLater: () => ({ later: false }) };

function provide(flow: FlowId, impl: Impl): AnyStateMachine {
  const machine = MACHINES[flow];
  const stand = ([name, fn]: [string, unknown]) => [
    name,
    syncActor(fn as (input: unknown) => unknown),
  ];
  const entries = Object.entries(impl);
  const paying = entries.some(([name]) => name === 'startPayment');
  const calls = Object.entries({ ...(paying ? PAY_AT_ONCE : {}), ...impl }).filter(([name]) =>
    PAYMENT_CALLS.has(name),
  );
  const actors = Object.fromEntries(
    entries.filter(([name]) => !PAYMENT_CALLS.has(name)).map(stand),
  );
  if (calls.length > 0) {
    actors.paymentMachine = providedPayment(
      Object.fromEntries(calls.map(stand)) as Parameters<typeof providedPayment>[0],
    );
  }
  return machine.provide({ actors } as Parameters<typeof machine.provide>[0]);
}

/** The API actor names of a flow. */
export function actorNames(flow: FlowId): string[] {
  return Object.keys(BASE[flow]);
}

/**
 * The flow with its typical world, or a variant world, or with `failing` actors throwing `error`;
 * `overrides` replace single stand-ins.
 */
export function worldMachine(
  flow: FlowId,
  options: {
    variant?: string;
    failing?: readonly string[];
    error?: unknown;
    /** Stand-ins laid over the world's (a world aligned with the sandbox's data). */
    overrides?: Impl;
  } = {},
): AnyStateMachine {
  const base = BASE[flow];
  const variant = options.variant ? (VARIANTS[flow][options.variant] ?? {}) : {};
  const impl: Impl = { ...base, ...variant, ...options.overrides };
  for (const name of options.failing ?? []) {
    impl[name] = () => {
      throw options.error;
    };
  }
  return provide(flow, impl);
}

/** Names of the variant worlds of a flow. */
export function variantsOf(flow: FlowId): string[] {
  return Object.keys(VARIANTS[flow]);
}

/** Typed answers the walk tries per prompt key: the first is accepted, the last rejected. */
export const TEXTS: Record<string, string[]> = {
  'menu.policyholder': ['hello'],
  'motor.askPlate': ['AJQ 1909', '!!'],
  'motor.askRenewPlate': ['AJQ 1909', '!!'],
  'motor.askVehicle': ['Toyota Corolla 2018', 'Toyota'],
  'motor.askChassis': ['NZE161', '!!'],
  'motor.askEngine': ['1NZ987', '!!'],
  'motor.askName': ['Mwila Banda', 'Mwila'],
  'motor.askEmail': ['mwila@example.com', 'nope'],
  'motor.askCode': ['123456', '12ab'],
  'travel.askDestination': ['South Africa', '!!'],
  'travel.askDays': ['14', '400'],
  'travel.askName': ['Mwila Banda', 'Mwila'],
  'travel.askTravellerName': ['Chanda Banda', '42'],
  'claim.askPolicy': ['pol_1', '!!'],
  'claim.askPolicy.group-life': ['pol_1', '!!'],
  'claim.ask.partnerLoanReference': ['KL-1', '!!'],
  'claim.askDate.credit-life': [daysAgo(5).typed, '2099-01-15'],
  'claim.askDate.group-life': ['10/01/2025', '2099-01-15'],
  'claim.askDetails': ['Accident on the road', '!!'],
  'claim.askNumber': ['CLC-000001', '!!'],
  'staff.desk': [
    'policy ABC123',
    'claim 42',
    'claims',
    'txn REF1',
    'household 479974/11/1',
    'batch P1 B1',
    'bordereau P1',
    'confirm 42',
    'policy',
    'hello',
  ],
  'staff.ask.policy': ['AJQ 1909', '!!'],
  'staff.ask.claim': ['42', '!!'],
  'staff.ask.confirm': ['42', '!!'],
  'staff.ask.txn': ['REF1', 'a b'],
  'staff.ask.batch': ['P1 B1', 'P1'],
  'staff.ask.bordereau': ['P1', '!!'],
};

/**
 * Why the sandbox's mobile-money rails fail a payment, by the payer number's last digit (1, 2, 3),
 * as the outcome pushed into the conversation says it.
 */
export const SANDBOX_FAILURES = [
  'The customer declined the payment prompt',
  'Insufficient funds',
  'The payment prompt expired without an answer',
];

/**
 * Events pushed while a flow waits: `payment.proceed` once a handset's call was let go, and
 * payment outcomes for its reference (paid, failed) and another's; after the call was let go,
 * each way the sandbox's rails fail.
 */
export function pushedReplies(snapshot: FlowSnapshot): Reply[] {
  const ctx = snapshot.context as { payment?: { reference?: string } | null; policy?: unknown };
  const policy = ctx.policy as { reference?: string } | null | undefined;
  const child = paymentChild(snapshot)?.context;
  const proceed: Reply[] = child?.proceedId
    ? [{ type: 'payment.proceed', id: child.proceedId }]
    : [];
  const reference = ctx.payment?.reference ?? policy?.reference;
  const childReference = (child?.pay as { reference?: string } | undefined)?.reference;
  if (!reference && childReference && child?.pay?.released) {
    return [
      ...proceed,
      { type: 'payment.settled', reference: childReference, outcome: 'paid' },
      ...SANDBOX_FAILURES.map(
        (reason): Reply => ({
          type: 'payment.settled',
          reference: childReference,
          outcome: 'failed',
          reason,
        }),
      ),
    ];
  }
  if (!reference) return proceed;
  return [
    ...proceed,
    {
      type: 'payment.settled',
      reference,
      outcome: 'paid',
      policyNumber: 'MTR-0009',
      policyId: 'pol_9',
    },
    { type: 'payment.settled', reference, outcome: 'failed', reason: 'declined' },
    { type: 'payment.settled', reference: 'SOMEONE-ELSE', outcome: 'paid' },
  ];
}

/** Every flow id, in menu order. */
export const FLOW_IDS: readonly FlowId[] = [
  'main-menu',
  'motor-quote',
  'travel-issue',
  'claim-intimation',
  'cover-status',
  'staff-desk',
];

type Ctx = Record<string, unknown> & {
  answers?: Record<string, unknown>;
  prompt: { key: string; params?: unknown; notes?: unknown; choices?: unknown };
};

/**
 * What the walk tells states apart by: the state, its screen, the tries used and the few facts
 * that steer later branches. Answers' values are left out so back-and-forth does not multiply
 * states (every answer is still checked by the property tests).
 */
export function salient(flow: FlowId): (snapshot: FlowSnapshot) => string {
  return (snapshot) => {
    const c = snapshot.context as Ctx;
    const a = c.answers ?? {};
    const pick: Record<FlowId, () => unknown> = {
      'main-menu': () => c,
      'motor-quote': () => [
        c.mode,
        c.page,
        a.productId === '101',
        (c.vehicle as { riskCategoryId?: string } | null)?.riskCategoryId ?? c.vehicle === null,
        c.holder === null,
        c.holderLookup,
        c.quote === null,
        (c.payment as { status?: string } | null)?.status,
        (a.payment as { method?: string } | undefined)?.method,
        (c.failure as { op?: string } | null)?.op,
      ],
      'travel-issue': () => [
        (a.travellers as unknown[] | undefined)?.length,
        (a.payment as { method?: string } | undefined)?.method,
        (c.policy as { status?: string } | null)?.status,
        (c.failure as { op?: string } | null)?.op,
      ],
      'claim-intimation': () => [
        a.line,
        a.by,
        c.fromHeld,
        (c.held as unknown[] | undefined)?.length === 0,
        (c.claims as unknown[] | undefined)?.length === 0,
        c.claim === null,
        (c.failure as { op?: string } | null)?.op,
        Math.min(Number(c.documents), 2),
      ],
      'cover-status': () => [
        (c.answer as { access?: string } | null)?.access,
        c.picked,
        c.step,
        c.phone === null,
        (c.failure as { kind?: string } | null)?.kind,
      ],
      'staff-desk': () => [a.topic, (c.failure as { kind?: string } | null)?.kind],
      'my-data': () => [c.reason],
    };
    return JSON.stringify([
      snapshot.status,
      snapshot.value,
      c.prompt.key,
      { ...(c.prompt.params as object | undefined), count: undefined },
      c.prompt.notes,
      c.tries,
      pick[flow](),
    ]);
  };
}
