import { catalogueOf } from './catalogue.js';
import { createIndividual } from './clients.js';
import {
  createCreditLifePolicy,
  intimateCreditLifeClaim,
  placeLoans,
  placeLoansAwaitingPremium,
  takeLoansOffCover,
} from './credit-life.js';
import { addDays, addMonths, isoDate } from './dates.js';
import {
  attachGroupLifeDocuments,
  createGroupLifePolicy,
  enrolBatch,
  intimateGroupLifeClaim,
} from './group-life.js';
import type { IdSource } from './ids.js';
import { createMotorQuotation, issueFromQuotation } from './retail.js';
import { SEED } from './seed.js';
import type { SandboxContext } from './state.js';
import { SANDBOX_TEST_MSISDNS } from './test-msisdns.js';

/** A person of the demo book: who they are and the phone on record for them. */
export interface DemoPerson {
  readonly firstName: string;
  readonly lastName: string;
  readonly nrcNumber: string;
  /** The phone on record, in the API's `260…` form; dial or chat from it to see their cover. */
  readonly phoneNumber: string;
  readonly dateOfBirth: string;
}

/**
 * The demo book the sandbox seeds at every start, described once: the seed code, its test and the
 * README's "Demo data" table all read this constant. Ids and numbers are fixed; dates are relative
 * to the sandbox clock (`…DaysAgo`, `…InDays`), so the book never goes stale.
 */
export const DEMO_BOOK = {
  /** Mobile-money test numbers: the last digit chooses the payment's outcome. */
  testNumbers: SANDBOX_TEST_MSISDNS,
  motor: {
    /** The policyholder of both demo cars (the seeded individual). */
    holder: {
      firstName: SEED.individual.firstName,
      lastName: SEED.individual.lastName,
      nrcNumber: SEED.individual.idNumber,
      phoneNumber: SEED.individual.phoneNumber,
      dateOfBirth: '1986-03-14',
    } satisfies DemoPerson,
    /** A car already insured: an active third-party policy bought a month ago. */
    insured: {
      registrationNumber: SEED.vehicle.registrationNumber,
      policyId: 'pol_5a0c3e71d2b4',
      policyNumber: 'MTR-DEMO-000001',
      startedDaysAgo: 30,
    },
    /** A car whose policy ends soon: renew it. */
    renewal: {
      registrationNumber: 'BAE 5521',
      make: 'Nissan',
      model: 'Note',
      policyId: 'pol_8e2b6f90c41d',
      policyNumber: 'MTR-DEMO-000002',
      endsInDays: 10,
    },
    /** A plate never registered nor insured: buy cover for a new car. */
    newPlate: 'BCD 4321',
  },
  funeral: {
    /** Principal of a covered group-funeral household (spouse and child covered too). */
    principal: {
      firstName: 'Chanda',
      lastName: 'Mulenga',
      nrcNumber: SEED.funeralPrincipalNrc,
      phoneNumber: '260966000444',
      dateOfBirth: '1980-04-02',
    } satisfies DemoPerson,
    policyNumber: 'GF-2025-000001',
    startedDaysAgo: 60,
  },
  groupLife: {
    employer: SEED.employer.name,
    policyId: 'glp_3c9d1e5a7f20',
    policyNumber: 'GL-DEMO-000001',
    startedDaysAgo: 90,
    /** A covered employee: check cover, or intimate a claim against their membership. */
    member: {
      firstName: 'Bupe',
      lastName: 'Chilufya',
      nrcNumber: '234567/10/1',
      phoneNumber: '260977234567',
      dateOfBirth: '1988-07-14',
      annualSalary: 96_000,
    },
    /** An employee who died; their death claim is Documented. */
    deceased: {
      firstName: 'Mutale',
      lastName: 'Mwansa',
      nrcNumber: '234568/10/1',
      phoneNumber: '260967234568',
      dateOfBirth: '1979-02-03',
      annualSalary: 72_000,
    },
  },
  creditLife: {
    lender: SEED.corporate.name,
    /** A borrower with loans in every state. */
    borrower: {
      firstName: 'Natasha',
      lastName: 'Phiri',
      nrcNumber: '345678/10/1',
      phoneNumber: '260966345678',
      dateOfBirth: '1990-09-21',
    } satisfies DemoPerson,
    /** Payroll loans, paid up: one loan on risk, one repaid early. */
    payroll: {
      policyId: 'clp_1f4b8d2e6a93',
      policyNumber: 'CL-DEMO-000001',
      startedDaysAgo: 20,
      activeLoan: { reference: 'KL-DEMO-ACTIVE', amount: 25_000 },
      closedLoan: { reference: 'KL-DEMO-CLOSED', amount: 8_000 },
    },
    /** Prepaid micro-loans: a loan Pending, off risk until its premium is paid. */
    prepaid: {
      policyId: 'clp_6b2e9a0c4d17',
      policyNumber: 'CL-DEMO-000002',
      startedDaysAgo: 5,
      pendingLoan: { reference: 'KL-DEMO-PENDING', amount: 5_000 },
    },
    /** A policy whose latest period premium is unpaid but within grace: cover InGrace. */
    inGrace: {
      policyId: 'clp_9d7c3b1a5e08',
      policyNumber: 'CL-DEMO-000003',
      startedDaysAgo: 35,
      loan: { reference: 'KL-DEMO-GRACE', amount: 12_000 },
    },
  },
  claims: {
    /** A credit-life retrenchment claim just intimated (no documents yet). */
    intimated: {
      id: 'clm_2e8a4c6f1b90',
      claimNumber: 'CLC-DEMO-0001',
      claimType: 'Retrenchment',
      lossDaysAgo: 3,
    },
    /** A group-life death claim with its death certificate attached. */
    documented: {
      id: 'clm_7b1d5f3a9c42',
      claimNumber: 'GLC-DEMO-0001',
      lossDaysAgo: 12,
    },
  },
} as const;

/** An id source that hands out the demo book's fixed ids first, then the usual ones. */
function withFixedIds(base: IdSource, fixed: Record<string, string[]>): IdSource {
  return {
    next: (prefix) => fixed[prefix]?.shift() ?? base.next(prefix),
    seq: base.seq,
  };
}

function person(ctx: SandboxContext, who: DemoPerson, stamp: string) {
  const client = createIndividual(ctx, {
    firstName: who.firstName,
    lastName: who.lastName,
    phoneNumber: who.phoneNumber,
    email: `${who.firstName}.${who.lastName}@example.com`.toLowerCase(),
    idNumber: who.nrcNumber,
    idType: 'NRC',
    dateOfBirth: who.dateOfBirth,
  });
  client.createdAt = stamp;
  client.updatedAt = stamp;
  return client;
}

function loanRow(
  who: DemoPerson,
  loan: { reference: string; amount: number },
  start: Date,
  months: number,
) {
  return {
    fullName: `${who.firstName} ${who.lastName}`,
    nrcNumber: who.nrcNumber,
    dateOfBirth: who.dateOfBirth,
    amount: loan.amount,
    startDate: isoDate(start),
    endDate: isoDate(addDays(addMonths(start, months), -1)),
    partnerLoanReference: loan.reference,
    interestRate: 0.28,
  };
}

/**
 * Seeds the demo book into a state that already holds the base seed (the motorist, the corporates,
 * the negotiated quotations and the funeral household). Runs last at start-up; it moves no money.
 */
export function seedDemoBook(base: SandboxContext): void {
  const book = DEMO_BOOK;
  const ctx: SandboxContext = {
    ...base,
    ids: withFixedIds(base.ids, {
      pol: [book.motor.insured.policyId, book.motor.renewal.policyId],
      glp: [book.groupLife.policyId],
      clp: [
        book.creditLife.payroll.policyId,
        book.creditLife.prepaid.policyId,
        book.creditLife.inGrace.policyId,
      ],
    }),
  };
  const now = ctx.clock.now();
  const time: DemoTime = {
    now,
    stamp: now.toISOString(),
    daysAgo: (days: number) => addDays(now, -days),
  };
  seedDemoMotor(ctx, time);
  seedDemoFuneral(ctx, time);
  seedDemoGroupLife(ctx, time);
  // Without the approved credit-life quotations the book stops here, the principal unregistered.
  if (!seedDemoCreditLife(ctx, time)) return;
  // The household's principal is a registered policyholder with that phone on record, as the
  // insurer keeps every client: My cover finds the household from the phone (issue 30). Last,
  // so the ids of every record above stay as they were.
  person(ctx, book.funeral.principal, time.stamp);
}

/** The moment the demo book is seeded at, and days counted back from it. */
interface DemoTime {
  readonly now: Date;
  /** `now` as an ISO timestamp, for createdAt and updatedAt. */
  readonly stamp: string;
  readonly daysAgo: (days: number) => Date;
}

/**
 * The demo book's motor: one car insured, one near renewal (the new plate is simply never
 * registered).
 */
function seedDemoMotor(ctx: SandboxContext, time: DemoTime): void {
  const book = DEMO_BOOK;
  const { state } = ctx;
  const { now, stamp, daysAgo } = time;
  const holder = [...state.clients.values()].find(
    (client) => client.idNumber === book.motor.holder.nrcNumber,
  );
  const insuredCar = [...state.vehicles.values()].find(
    (vehicle) => vehicle.registrationNumber === book.motor.insured.registrationNumber,
  );
  if (!holder || !insuredCar) throw new Error('The demo book needs the base seed first');
  const renewalCarId = ctx.ids.next('veh');
  state.vehicles.set(renewalCarId, {
    id: renewalCarId,
    clientId: holder.id,
    registrationNumber: book.motor.renewal.registrationNumber,
    make: book.motor.renewal.make,
    model: book.motor.renewal.model,
    yearOfManufacture: 2016,
    chassisNumber: 'E12XQ0045678',
    engineNumber: 'HR12DE33221',
    motorRiskCategoryId: 'mrc_private',
    color: 'Blue',
    createdAt: stamp,
    updatedAt: stamp,
  });
  const product = catalogueOf(ctx).motor.find((candidate) => candidate.id === 101);
  const motorPolicies = [
    {
      vehicleId: insuredCar.id,
      start: daysAgo(book.motor.insured.startedDaysAgo),
      ...book.motor.insured,
    },
    {
      vehicleId: renewalCarId,
      // A year of cover that ends `endsInDays` from today.
      start: addMonths(addDays(now, book.motor.renewal.endsInDays + 1), -12),
      ...book.motor.renewal,
    },
  ];
  for (const demo of motorPolicies) {
    if (!product) break;
    const quotation = createMotorQuotation(ctx, {
      productId: product.id,
      duration: 4,
      currency: 'ZMW',
      startDate: isoDate(demo.start),
      clientId: holder.id,
      risks: [{ vehicleId: demo.vehicleId }],
    });
    issueFromQuotation(ctx, quotation, true).policyNumber = demo.policyNumber;
  }
}

/** The demo book's group funeral: the household's cover runs from `startedDaysAgo` for a year. */
function seedDemoFuneral(ctx: SandboxContext, time: DemoTime): void {
  const book = DEMO_BOOK;
  const { state } = ctx;
  const { daysAgo } = time;
  const household = state.households.get(book.funeral.principal.nrcNumber);
  const funeralPolicy = household?.policy as Record<string, unknown> | undefined;
  if (funeralPolicy) {
    const start = daysAgo(book.funeral.startedDaysAgo);
    funeralPolicy.startDate = isoDate(start);
    funeralPolicy.endDate = isoDate(addDays(addMonths(start, 12), -1));
  }
}

/** The demo book's group life: two employees covered, one of whom died (claim Documented). */
function seedDemoGroupLife(ctx: SandboxContext, time: DemoTime): void {
  const book = DEMO_BOOK;
  const { state } = ctx;
  const { stamp, daysAgo } = time;
  const groupQuotation = [...state.groupLifeQuotations.values()].find(
    (quotation) => quotation.status === 'Approved',
  );
  if (groupQuotation) {
    const policy = createGroupLifePolicy(ctx, {
      quotationId: groupQuotation.id,
      startDate: isoDate(daysAgo(book.groupLife.startedDaysAgo)),
    });
    policy.policyNumber = book.groupLife.policyNumber;
    const people = [book.groupLife.member, book.groupLife.deceased];
    const batch = enrolBatch(ctx, policy.id, {
      members: people.map((who) => ({
        fullName: `${who.firstName} ${who.lastName}`,
        nrcNumber: who.nrcNumber,
        dateOfBirth: who.dateOfBirth,
        annualSalary: who.annualSalary,
      })),
    });
    people.forEach((who, index) => {
      person(ctx, who, stamp);
      const member = state.members.get(batch.memberIds[index] ?? '');
      if (member) member.phoneNumber = who.phoneNumber;
    });
    const documented = book.claims.documented;
    const claim = intimateGroupLifeClaim(
      { ...ctx, ids: withFixedIds(ctx.ids, { clm: [documented.id] }) },
      policy.id,
      {
        nrcNumber: book.groupLife.deceased.nrcNumber,
        lossDate: isoDate(daysAgo(documented.lossDaysAgo)),
        causeOfDeath: 'Illness',
      },
    );
    claim.claimNumber = documented.claimNumber;
    attachGroupLifeDocuments(ctx, documented.id, [
      { url: 'https://files.example.com/demo/death-certificate.pdf', name: 'Death certificate' },
    ]);
  }
}

/** The demo book's credit life: one borrower, loans Active, Closed, Pending and InGrace. */
function seedDemoCreditLife(ctx: SandboxContext, time: DemoTime): boolean {
  const book = DEMO_BOOK;
  const { state } = ctx;
  const { stamp, daysAgo } = time;
  const credit = book.creditLife;
  const quotations = [...state.creditLifeQuotations.values()].filter(
    (quotation) => quotation.status === 'Approved',
  );
  const ordinary = quotations.find((quotation) => !quotation.requiresPrepayment);
  const prepaid = quotations.find((quotation) => quotation.requiresPrepayment);
  if (!ordinary || !prepaid) return false;
  person(ctx, credit.borrower, stamp);
  const open = (quotationId: string, policy: { policyNumber: string; startedDaysAgo: number }) => {
    const record = createCreditLifePolicy(ctx, {
      quotationId,
      startDate: isoDate(daysAgo(policy.startedDaysAgo)),
    });
    record.policyNumber = policy.policyNumber;
    return { record, start: daysAgo(policy.startedDaysAgo) };
  };
  const payroll = open(ordinary.id, credit.payroll);
  placeLoans(ctx, payroll.record.id, [
    loanRow(credit.borrower, credit.payroll.activeLoan, payroll.start, 24),
    loanRow(credit.borrower, credit.payroll.closedLoan, payroll.start, 12),
  ]);
  takeLoansOffCover(ctx, payroll.record.id, {
    loans: [{ partnerLoanReference: credit.payroll.closedLoan.reference }],
  });
  const prepaidPolicy = open(prepaid.id, credit.prepaid);
  placeLoansAwaitingPremium(ctx, prepaidPolicy.record.id, [
    loanRow(credit.borrower, credit.prepaid.pendingLoan, prepaidPolicy.start, 6),
  ]);
  const grace = open(ordinary.id, credit.inGrace);
  placeLoans(ctx, grace.record.id, [
    loanRow(credit.borrower, credit.inGrace.loan, grace.start, 12),
  ]);
  const intimated = book.claims.intimated;
  const claim = intimateCreditLifeClaim(
    { ...ctx, ids: withFixedIds(ctx.ids, { clm: [intimated.id] }) },
    payroll.record.id,
    {
      partnerLoanReference: credit.payroll.activeLoan.reference,
      claimType: intimated.claimType,
      lossDate: isoDate(daysAgo(intimated.lossDaysAgo)),
      description: 'Retrenched when the employer closed its Ndola branch',
    },
  );
  claim.claimNumber = intimated.claimNumber;
  return true;
}
