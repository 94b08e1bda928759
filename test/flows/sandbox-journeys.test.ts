import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { daysAgo } from './fixtures.js';
import { holderCar, type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld();
});
afterAll(async () => {
  await world.close();
});

const choose = (id: string): Reply => ({ type: 'user.choice', id });
const type = (text: string): Reply => ({ type: 'user.text', text });

async function converse(
  key: string,
  replies: Reply[],
  audience: 'policyholder' | 'staff' = 'policyholder',
  /** The USSD caller's phone; none for a chat that has not shared one. */
  caller?: string,
) {
  const shown: Prompt[] = [];
  const address = caller
    ? {
        address: { channel: 'ussd' as const, address: caller, locale: 'en' },
        caller: { kind: 'phone' as const, phone: caller },
      }
    : {};
  for (const reply of replies) {
    shown.push(await world.engine.turn(key, reply, { audience, deadlineMs: 10_000, ...address }));
  }
  return shown;
}

describe('motor cover against the sandbox insurer', () => {
  it('quotes a registered vehicle for a known policyholder and waits for mobile money', async () => {
    // The holder's own phone: a plate on record for someone else is not theirs to quote (issue 23).
    const shown = await converse(
      'test:motor:1',
      [type('hi'), choose('motor'), choose('new')],
      'policyholder',
      '0971234567',
    );
    const products = shown.at(-1);
    expect(products?.key).toBe('motor.pickProduct');
    const thirdParty = products?.choices?.find((c) => c.label === 'Motor Third Party');
    expect(thirdParty).toBeDefined();
    await holderCar(world, 'AJQ 1911');
    // Priced before the plate: cover, use, then the periods with their prices.
    const rest = await converse('test:motor:1', [
      choose(thirdParty?.id ?? ''),
      choose('mrc_private'),
    ]);
    const durations = rest.at(-1);
    expect(durations?.key, JSON.stringify(rest)).toBe('motor.pickDuration');
    // The caller's own number is the holder's without asking: the holder on record is offered.
    const holder = await converse('test:motor:1', [
      choose(durations?.choices?.[0]?.id ?? ''),
      type('AJQ 1911'),
      choose('yes'),
    ]);
    expect(holder.at(-1)?.key, JSON.stringify(holder)).toBe('motor.confirmHolder');
    const pay = await converse('test:motor:1', [choose('yes')]);
    expect(pay.at(-1)?.key, JSON.stringify(pay)).toBe('motor.confirmQuote');
    const wait = await converse('test:motor:1', [choose('other'), type('0971234567')]);
    expect(wait.at(-1)?.key, JSON.stringify(wait)).toBe('pay.waitPhone');
  });

  it('tells the holder their car is already insured, with until when, instead of selling it again', async () => {
    const shown = await converse(
      'test:motor:insured',
      [type('hi'), choose('motor'), choose('new')],
      'policyholder',
      '0971234567',
    );
    const thirdParty = shown.at(-1)?.choices?.find((c) => c.label === 'Motor Third Party');
    const insured = await converse('test:motor:insured', [
      choose(thirdParty?.id ?? ''),
      choose('mrc_private'),
      choose('1'),
      type('AJQ 1909'),
    ]);
    const screen = insured.at(-1);
    expect(screen?.key, JSON.stringify(insured)).toBe('motor.alreadyInsured');
    expect(screen?.params?.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(screen?.choices?.map((c) => c.id)).toEqual(['renew', 'again', 'end']);
    const renewal = await converse('test:motor:insured', [choose('renew')]);
    expect(renewal.at(-1)?.key, JSON.stringify(renewal)).toBe('motor.confirmRenewal');
  });
});

/** Opens credit-life and group-life cover for the seeded borrower through the API itself. */
async function openCover(nrcNumber: string) {
  const { client } = world;
  const start = '2025-01-01';
  // Recent enough that the loan's cover has not lapsed and a recent loss is in the claim window.
  const creditStart = daysAgo(20).iso;
  const creditQuote = (await client.call('getCreditLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  const credit = await client.call('createCreditLifePolicy', {
    body: { quotationId: String(creditQuote?.id ?? ''), startDate: creditStart },
  });
  const creditPolicyId = String(credit.id);
  await client.call('placeSingleLoan', {
    path: { policyId: creditPolicyId },
    body: {
      fullName: 'Mwila Banda',
      nrcNumber,
      dateOfBirth: '1985-04-12',
      amount: 15000,
      startDate: creditStart,
      endDate: '2027-12-31',
      partnerLoanReference: 'KL-JOURNEY-1',
    },
  });
  const lifeQuote = (await client.call('getGroupLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  const life = await client.call('createGroupLifePolicy', {
    body: { quotationId: String(lifeQuote?.id ?? ''), startDate: start },
  });
  const lifePolicyId = String(life.id);
  await client.call('enrolGroupLifeBatch', {
    path: { policyId: lifePolicyId },
    body: {
      members: [
        { fullName: 'Mwila Banda', nrcNumber, dateOfBirth: '1985-04-12', annualSalary: 120000 },
      ],
      currency: 'ZMW',
    },
  });
  return { creditPolicyId, lifePolicyId };
}

describe('claims and cover against the sandbox insurer', () => {
  let policies: { creditPolicyId: string; lifePolicyId: string };
  beforeAll(async () => {
    policies = await openCover('479974/11/1');
  });

  it('intimates a credit-life claim by partner reference, shows the payable and texts the documents link', async () => {
    // From the borrower's own phone: only it is shown the payout (issue 23).
    const shown = await converse(
      'test:claim:1',
      [
        type('hi'),
        choose('claim'),
        choose('credit-life'),
        type(policies.creditPolicyId),
        type('KL-JOURNEY-1'),
        // The product's first scope of cover, Death.
        choose('t0'),
        type(daysAgo(10).typed),
        type('Road accident'),
        choose('submit'),
      ],
      'policyholder',
      '0971234567',
    );
    const intimated = shown.at(-1);
    expect(intimated?.key, JSON.stringify(intimated)).toBe('claim.intimated.payable');
    expect(intimated?.params?.status).toBe('status.claimReceived');
    // A USSD caller sends documents through the page the SMS links to (issue 30).
    const documents = await converse(
      'test:claim:1',
      [choose('attach')],
      'policyholder',
      '0971234567',
    );
    expect(documents.at(-1)?.key).toBe('claim.linkSent');
    expect(world.sms.at(-1)).toMatchObject({ key: 'claim.sms.upload' });
  });

  it('intimates a group-life death claim by NRC from a relative’s phone, and texts the member’s phone on record that a claim was made', async () => {
    const before = world.sms.length;
    const shown = await converse(
      'test:claim:2',
      [
        type('hi'),
        choose('claim'),
        choose('group-life'),
        type(policies.lifePolicyId),
        type('479974111'),
        type('10/06/2025'),
        type('Illness'),
        choose('submit'),
      ],
      'policyholder',
      '0955333444',
    );
    expect(shown.at(-1)?.key, JSON.stringify(shown.at(-1))).toMatch(/^claim\.intimated/);
    const told = world.sms.slice(before).filter((sms) => sms.key.startsWith('claim.sms.reported'));
    expect(told.length).toBeGreaterThan(0);
    expect(told.map((sms) => sms.to)).not.toContain('260955333444');
  });

  it('asks a chat that shared no phone for its contact before a claim can be reported', async () => {
    const shown = await converse('test:claim:nobody', [
      type('hi'),
      choose('claim'),
      choose('group-life'),
    ]);
    expect(shown.at(-1)?.key).toBe('claim.needPhone');
    expect(shown.at(-1)?.input).toBe('contact');
  });

  it("lists the demo borrower's own loans from their phone, each with its own status", async () => {
    const borrower = DEMO_BOOK.creditLife.borrower;
    const phone = `0${borrower.phoneNumber.slice(3)}`;
    const shown = await converse(
      'test:cover:1',
      [type('hi'), choose('policies')],
      'policyholder',
      phone,
    );
    const list = shown.at(-1);
    expect(list?.key, JSON.stringify(list)).toBe('cover.list');
    const loans = Object.fromEntries(
      (list?.choices ?? [])
        .filter((c) => c.label === 'cover.line.creditLife')
        .map((c) => [c.params?.number, c.params?.status]),
    );
    const { payroll, prepaid, inGrace } = DEMO_BOOK.creditLife;
    expect(loans).toEqual({
      [payroll.activeLoan.reference]: 'status.inForce',
      [payroll.closedLoan.reference]: 'status.offCover',
      [prepaid.pendingLoan.reference]: 'status.waitingPremium',
      [inGrace.loan.reference]: 'status.inGraceUntil',
    });
    // In grace: the detail says until when.
    const grace = list?.choices?.find((c) => c.params?.number === inGrace.loan.reference);
    const detail = await converse('test:cover:1', [choose(grace?.id ?? '')], 'policyholder', phone);
    expect(detail.at(-1)?.notes?.[0]?.key).toBe('cover.note.until');
    // The same NRC typed from the phone on record shows everything too.
    const byNrc = await converse(
      'test:cover:1',
      [choose('list'), choose('another'), type(borrower.nrcNumber)],
      'policyholder',
      phone,
    );
    expect(byNrc.at(-1)?.key).toBe('cover.list');
  });

  it('tells a phone not on record only that cover exists and until when, and sends the details to the phone on record', async () => {
    const stranger = '0955000001';
    const shown = await converse(
      'test:cover:2',
      [type('hi'), choose('policies'), choose('another'), type('479974111')],
      'policyholder',
      stranger,
    );
    const answer = shown.at(-1);
    expect(answer?.key, JSON.stringify(answer)).toBe('cover.limited.covered');
    expect(answer?.params?.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const seen = JSON.stringify(answer);
    for (const secret of [
      'Mwila',
      'Banda',
      'KL-JOURNEY-1',
      'GL-',
      'CL-',
      'MTR-',
      '15000',
      '15,000',
    ]) {
      expect(seen).not.toContain(secret);
    }
    const sent = await converse('test:cover:2', [choose('sms')], 'policyholder', stranger);
    expect(sent.at(-1)?.key).toBe('cover.sms.sent');
    expect(world.sms).toContainEqual({ to: '260971234567', key: 'cover.sms.details' });
  });

  it('gives staff the bordereau of a policy as a link', async () => {
    const shown = await converse(
      'test:staff:1',
      [type('hi'), choose('desk'), type(`bordereau ${policies.creditPolicyId}`)],
      'staff',
    );
    const result = shown.at(-1);
    expect(result?.key, JSON.stringify(result)).toBe('staff.bordereau');
    expect(result?.attachments?.[0]?.url).toMatch(/^https:\/\/files\.test\//);
  });
});

describe('my cover after buying motor and travel cover', () => {
  const holderPhone = '260971234567';

  /** Buys cover the way the flows do: pay by mobile money, then the insurer settles it. */
  async function buyMotorAndTravel() {
    const { client, sandbox } = world;
    const holder = (
      await client.call('getIndividuals', { query: { PhoneNumber: holderPhone, PageSize: 1 } })
    ).data[0];
    const [vehicle] = await client.call('searchVehicleByRegistration', {
      query: { registrationNumber: 'AJQ 1909' },
    });
    const quote = await client.call('createMotorQuotation', {
      body: {
        productId: '101',
        duration: 4,
        currency: 'ZMW',
        startDate: '2026-12-01',
        clientId: String(holder?.id ?? ''),
        risks: [{ vehicleId: String(vehicle?.id ?? '') }],
      },
    });
    await client.call('payQuotation', {
      path: { quoteId: String(quote.id) },
      body: {
        reference: 'MY-COVER-MOTOR',
        payment: { method: 'MobileMoney', mobileMoneyAccountNumber: holderPhone },
      },
    });
    sandbox.payments.settleNow('MY-COVER-MOTOR');
    const [travelPackage] = (await client.call('getTravelProducts', { query: { PageSize: 1 } }))
      .data;
    await client.call('instantIssueTravelPolicy', {
      body: {
        packageId: String(travelPackage?.id ?? ''),
        destination: 'South Africa',
        startDate: '2026-12-20',
        reference: 'MY-COVER-TRAVEL',
        policyHolder: {
          clientType: 'Individual',
          name: 'Mwila Banda',
          idType: 'NRC',
          idNumber: '479974/11/1',
          phone: holderPhone,
        },
        beneficiaries: [{ firstName: 'Mwila', lastName: 'Banda', relationship: 'Self' }],
        mobileMoneyAccountNumber: holderPhone,
      },
    });
    sandbox.payments.settleNow('MY-COVER-TRAVEL');
    // Bought at the insurer, not through the bot: My cover shows it once the sync has run.
    await world.syncHoldings();
  }

  it('lists both with their periods and sends the motor certificate again by SMS on USSD', async () => {
    await buyMotorAndTravel();
    const shown = await converse(
      'test:mine:1',
      [type('hi'), choose('policies')],
      'policyholder',
      '0971234567',
    );
    const list = shown.at(-1);
    expect(list?.key, JSON.stringify(list)).toBe('cover.list');
    // The holder's demo-book policies are listed too: the one just bought is not one of them.
    const motor = list?.choices?.find(
      (c) => c.label === 'cover.line.motor' && !String(c.params?.number).startsWith('MTR-DEMO-'),
    );
    const travel = list?.choices?.find((c) => c.label === 'cover.line.travel');
    expect(motor?.params?.status).toBe('status.inForce');
    expect(travel?.params?.status).toBe('status.inForce');

    const motorDetail = await converse(
      'test:mine:1',
      [choose(motor?.id ?? '')],
      'policyholder',
      '0971234567',
    );
    expect(motorDetail.at(-1)?.params).toMatchObject({
      startDate: '2026-12-01',
      covers: 'AJQ 1909',
    });
    expect(motorDetail.at(-1)?.params?.endDate).toMatch(/^2027-/);
    const certificate = await converse(
      'test:mine:1',
      [choose('certificate')],
      'policyholder',
      '0971234567',
    );
    expect(certificate.at(-1)?.key).toBe('cover.certificate.sms');
    expect(world.sms).toContainEqual({ to: holderPhone, key: 'cover.sms.certificate' });
    expect([...world.files.keys()].some((url) => url.includes('-certificate.pdf'))).toBe(true);

    const back = await converse(
      'test:mine:1',
      [choose('list'), choose(travel?.id ?? '')],
      'policyholder',
      '0971234567',
    );
    expect(back.at(-1)?.key).toBe('cover.detail.travel');
    expect(back.at(-1)?.params).toMatchObject({ startDate: '2026-12-20', covers: 'South Africa' });
  });
});

describe('claims from the caller’s own cover, tracked by the number given', () => {
  const twoDaysAgo = (() => {
    const d = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
  })();
  const local = (msisdn: string) => `0${msisdn.slice(3)}`;

  /** A USSD caller's claim on their own cover; "Add documents" sends them the page's link. */
  async function claimFromList(key: string, phone: string, pick: string, steps: Reply[]) {
    const listed = await converse(
      key,
      [type('hi'), choose('claim'), choose('held')],
      'policyholder',
      phone,
    );
    const list = listed.at(-1);
    expect(list?.key, JSON.stringify(list)).toBe('claim.held');
    const item = list?.choices?.find((c) => c.params?.number === pick);
    expect(item, JSON.stringify(list?.choices)).toBeDefined();
    const shown = await converse(
      key,
      [choose(item?.id ?? ''), ...steps, choose('submit'), choose('attach')],
      'policyholder',
      phone,
    );
    return shown;
  }

  async function trackByNumber(key: string, number: string, phone?: string) {
    const shown = await converse(
      key,
      [type('hi'), choose('claim'), choose('track'), choose('number'), type(number)],
      'policyholder',
      phone,
    );
    return shown.at(-1);
  }

  it('intimates a credit-life death claim on the borrower’s own loan, texts the documents link, then finds it by its CLC number', async () => {
    const borrower = DEMO_BOOK.creditLife.borrower;
    const shown = await claimFromList(
      'test:held:1',
      local(borrower.phoneNumber),
      // The active loan has the demo book's open claim: a second one is refused (issue 23).
      DEMO_BOOK.creditLife.inGrace.loan.reference,
      [choose('t0'), type(twoDaysAgo), type('Died in a road accident')],
    );
    const intimated = shown.find((p) => p.key.startsWith('claim.intimated'));
    const number = String(intimated?.params?.number ?? '');
    expect(number).toMatch(/^CLC-/);
    expect(intimated?.params?.documents).toBe('Death certificate, Loan statement');
    expect(shown.at(-1)?.key).toBe('claim.linkSent');
    expect(world.sms.at(-1)).toMatchObject({ key: 'claim.sms.upload' });
    // Documented as the documents page does it: the stored file's URL posted to the claim.
    const claimId = [...world.sandbox.state.claims.values()].find(
      (c) => c.claimNumber === number,
    )?.id;
    await world.client.call('attachCreditLifeClaimDocuments', {
      path: { claimId: claimId ?? '' },
      body: { documents: [{ url: 'https://files.test/f/certificate.jpg?sig=x' }] },
    });

    // Tracked by the number, on USSD and from a chat that never shared a phone (Telegram).
    const onUssd = await trackByNumber('test:track:1', number, local(borrower.phoneNumber));
    expect(onUssd?.key).toBe('claim.detail');
    expect(onUssd?.params).toMatchObject({ number, status: 'status.documentsReceived' });
    const inChat = await trackByNumber('test:track:2', number.toLowerCase());
    expect(inChat?.params).toMatchObject({ number, status: 'status.documentsReceived' });
  });

  it('intimates a group-life claim on the member’s own membership and texts the documents link', async () => {
    const member = DEMO_BOOK.groupLife.member;
    const shown = await claimFromList(
      'test:held:2',
      local(member.phoneNumber),
      DEMO_BOOK.groupLife.policyNumber,
      [type(twoDaysAgo), type('Died after an illness')],
    );
    const intimated = shown.find((p) => p.key.startsWith('claim.intimated'));
    expect(intimated?.params?.documents).toBe('Death certificate');
    expect(shown.at(-1)?.key).toBe('claim.linkSent');
    expect(world.sms.at(-1)).toMatchObject({ to: member.phoneNumber, key: 'claim.sms.upload' });
  });

  it('says so when no claim holds the number typed', async () => {
    const shown = await trackByNumber('test:track:3', 'CLC-NOPE-0001');
    expect(shown?.key).toBe('claim.notFound');
  });
});
