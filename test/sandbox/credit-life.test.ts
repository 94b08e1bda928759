import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { type Harness, loanRow, raw, startHarness } from './sandbox-harness.js';

/* Credit-life rules of the spec's "States and transitions" and "Errors", named in its words. */

let harness: Harness;
let ordinaryQuotation: string;
let prepaidQuotation: string;

beforeEach(async () => {
  harness = await startHarness();
  const quotations = await harness.client.call('getCreditLifeQuotations');
  ordinaryQuotation = String(
    quotations.find((q) => q.status === 'Approved' && !q.requiresPrepayment)?.id,
  );
  prepaidQuotation = String(quotations.find((q) => q.requiresPrepayment === true)?.id);
});

afterEach(async () => {
  await harness.close();
});

async function openPolicy(quotationId = ordinaryQuotation): Promise<string> {
  const policy = await harness.client.call('createCreditLifePolicy', {
    body: { quotationId, startDate: '2026-03-02' },
  });
  return policy.id;
}

async function status(reference: string) {
  return harness.client.call('getTransactionStatus', { path: { reference } });
}

async function settled(reference: string, expected = 'Success'): Promise<void> {
  await eventually(
    `payment ${reference} is ${expected}`,
    async () => (await status(reference)).status === expected,
    5000,
  );
}

async function visit(redirectUrl: string | null | undefined): Promise<void> {
  const response = await fetch(String(redirectUrl));
  expect(response.status).toBe(200);
  await response.text();
}

const card = { city: 'Lusaka', country: 'ZM', address: 'Cairo Road', zip: 10101 };

describe('credit-life policies', () => {
  it('a policy created on an approved quotation is Active with the rate table frozen onto it', async () => {
    const policyId = await openPolicy();
    const policy = await harness.client.call('getCreditLifePolicy', { path: { policyId } });
    expect(policy.status).toBe('Active');
    // Renegotiating the quotation later must not change the policy's rates.
    const quotation = harness.sandbox.state.creditLifeQuotations.get(ordinaryQuotation);
    for (const band of quotation?.rateBands ?? []) band.rate *= 10;
    const quote = await harness.client.call('quoteCreditLifeLoan', {
      path: { policyId },
      body: { amount: 10_000, startDate: '2026-03-02', endDate: '2027-03-01' },
    });
    expect(quote.premiumRate).toBe(0.01);
  });

  it('a policy cannot be opened on a quotation that is not approved', async () => {
    const quotations = await harness.client.call('getCreditLifeQuotations');
    const pending = quotations.find((q) => q.status === 'Pending');
    const response = await raw(harness, 'POST', '/credit-life/policies', {
      quotationId: pending?.id,
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toHaveProperty('quotationId');
  });

  it('an empty credit-life quotation list means onboarding is not finished', async () => {
    const bare = createSandbox({ apiKey: 'k', seed: false });
    const response = await bare.app.inject({
      method: 'GET',
      url: '/api/v1/credit-life/quotations',
      headers: { authorization: 'Bearer k' },
    });
    expect(response.json()).toEqual([]);
    await bare.close();
  });
});

describe('credit-life batches', () => {
  it('an ordinary batch submit is Approved, its loans on risk, with outstandingPremium equal to grossPremium', async () => {
    const policyId = await openPolicy();
    const batch = await harness.client.call('placeLoans', {
      path: { policyId },
      body: { loans: [loanRow('A-1'), loanRow('A-2', { amount: 20_000 })] },
    });
    expect(batch.status).toBe('Approved');
    expect(batch.grossPremium).toBe(315);
    expect(batch.outstandingPremium).toBe(batch.grossPremium);
    expect(batch.loans?.map((loan) => loan.status)).toEqual(['Active', 'Active']);
  });

  it('a single-loan placement is a one-row Addition batch, returned unwrapped', async () => {
    const policyId = await openPolicy();
    const batch = await harness.client.call('placeSingleLoan', {
      path: { policyId },
      body: loanRow('S-1'),
    });
    expect(batch).toMatchObject({ type: 'Addition', status: 'Approved', totalLoans: 1 });
  });

  it('a loan already on cover is returned under skipped and not charged twice', async () => {
    const policyId = await openPolicy();
    const first = await harness.client.call('placeSingleLoan', {
      path: { policyId },
      body: loanRow('D-1'),
    });
    const second = await harness.client.call('placeLoans', {
      path: { policyId },
      body: { loans: [loanRow('D-1'), loanRow('D-2')] },
    });
    expect(second.skipped).toEqual([
      {
        nrcNumber: '111111/11/1',
        partnerLoanReference: 'D-1',
        existingLoanId: first.loans?.[0]?.id,
      },
    ]);
    expect(second.totalLoans).toBe(1);
    expect(second.grossPremium).toBe(105);
  });

  it('a batch placed and paid in one call on a prepaid policy is Pending and off risk until the payment confirms, then on risk and receipted in one step', async () => {
    const policyId = await openPolicy(prepaidQuotation);
    const placed = await harness.client.call('placeLoansAndPay', {
      path: { policyId },
      body: { loans: [loanRow('P-1')], payment: { reference: 'prepaid-1', cardDetails: card } },
    });
    expect(placed.schedule.status).toBe('Pending');
    expect(placed.schedule.loans?.[0]?.status).toBe('Pending');
    expect(placed.payment.status).toBe('Pending');
    await visit(placed.payment.redirectUrl);
    const after = await harness.client.call('getCreditLifeBatch', {
      path: { scheduleId: placed.schedule.id },
    });
    expect(after).toMatchObject({
      status: 'Receipted',
      outstandingPremium: 0,
      amountReceipted: 105,
    });
    expect(after.loans?.[0]?.status).toBe('Active');
  });

  it('a prepaid batch paid by mobile money goes on risk when the gateway confirms, with no further call', async () => {
    const policyId = await openPolicy(prepaidQuotation);
    const placed = await harness.client.call('placeLoansAndPay', {
      path: { policyId },
      body: {
        loans: [loanRow('P-2')],
        payment: { reference: 'prepaid-mm', mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(placed.schedule.status).toBe('Pending');
    await settled('prepaid-mm');
    const loan = await harness.client.call('getCoveredLoanByReference', {
      path: { policyId },
      query: { partnerLoanReference: 'P-2' },
    });
    expect(loan.status).toBe('Active');
  });

  it('receipting remitted premium moves an Approved batch to PartiallyReceipted, then Receipted', async () => {
    const policyId = await openPolicy();
    const batch = await harness.client.call('placeLoans', {
      path: { policyId },
      body: { loans: [loanRow('R-1'), loanRow('R-2')] },
    });
    const part = await harness.client.call('payCreditLifeSchedule', {
      path: { scheduleId: batch.id },
      body: { reference: 'receipt-1', cardDetails: card, amount: 100 },
    });
    await visit(part.redirectUrl);
    const partly = await harness.client.call('getCreditLifeBatch', {
      path: { scheduleId: batch.id },
    });
    expect(partly).toMatchObject({
      status: 'PartiallyReceipted',
      amountReceipted: 100,
      outstandingPremium: 110,
    });
    const rest = await harness.client.call('payCreditLifeSchedule', {
      path: { scheduleId: batch.id },
      body: { reference: 'receipt-2', cardDetails: card },
    });
    await visit(rest.redirectUrl);
    const full = await harness.client.call('getCreditLifeBatch', {
      path: { scheduleId: batch.id },
    });
    expect(full).toMatchObject({
      status: 'Receipted',
      amountReceipted: 210,
      outstandingPremium: 0,
    });
  });

  it('a batch premium paid by any method other than mobile money or card is not accepted', async () => {
    const policyId = await openPolicy();
    const batch = await harness.client.call('placeSingleLoan', {
      path: { policyId },
      body: loanRow('M-1'),
    });
    const response = await raw(harness, 'POST', `/credit-life/schedules/${batch.id}/pay`, {
      reference: 'paylater-1',
      method: 'PayLater',
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty('method');
    const gateway = await raw(harness, 'POST', `/credit-life/schedules/${batch.id}/pay`, {
      reference: 'gateway-1',
      mobileMoneyAccountNumber: '0977123456',
      gateway: 'Airtel',
    });
    expect(gateway.status).toBe(400);
    expect(gateway.body.errors).toHaveProperty('gateway');
  });
});

describe('credit-life loans', () => {
  it('loans taken off cover on early repayment go off risk at once with no refund', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('E-1') });
    const off = await harness.client.call('takeLoansOffCover', {
      path: { policyId },
      body: { loans: [{ partnerLoanReference: 'E-1' }] },
    });
    expect(off).toMatchObject({ removed: 1, refundAmount: 0 });
    const loan = await harness.client.call('getCoveredLoanByReference', {
      path: { policyId },
      query: { partnerLoanReference: 'E-1' },
    });
    expect(loan.status).toBe('Closed');
    const state = await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } });
    expect(state.totalCoveredAmount).toBe(0);
  });

  it('a loan identified by both loanId and partnerLoanReference is invalid', async () => {
    const policyId = await openPolicy();
    const batch = await harness.client.call('placeSingleLoan', {
      path: { policyId },
      body: loanRow('B-1'),
    });
    const both = { loanId: batch.loans?.[0]?.id, partnerLoanReference: 'B-1' };
    const off = await raw(harness, 'POST', `/credit-life/policies/${policyId}/loans/off-cover`, {
      loans: [both],
    });
    expect(off.status).toBe(400);
    expect(off.body.errors).toHaveProperty(['loans.0.partnerLoanReference']);
    const claim = await raw(harness, 'POST', `/credit-life/policies/${policyId}/claims`, {
      ...both,
      claimType: 'Death',
      lossDate: '2026-03-10',
    });
    expect(claim.status).toBe(400);
  });

  it('quoting a loan writes nothing', async () => {
    const policyId = await openPolicy();
    const before = [harness.sandbox.state.loans.size, harness.sandbox.state.creditLifeBatches.size];
    const quote = await harness.client.call('quoteCreditLifeLoan', {
      path: { policyId },
      body: { amount: 50_000, startDate: '2026-03-02', endDate: '2028-03-01' },
    });
    expect(quote).toMatchObject({
      premiumRate: 0.025,
      netPremium: 1250,
      levy: 62.5,
      grossPremium: 1312.5,
    });
    expect([
      harness.sandbox.state.loans.size,
      harness.sandbox.state.creditLifeBatches.size,
    ]).toEqual(before);
  });
});

describe('credit-life cover state', () => {
  it('cover with a period premium unpaid is InGrace and on risk until graceEndsAt, then lapses', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('G-1') });
    harness.clock.advanceDays(31);
    const inGrace = await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } });
    expect(inGrace).toMatchObject({
      status: 'InGrace',
      unpaidPeriods: [1],
      totalCoveredAmount: 10_000,
    });
    harness.clock.set(new Date(String(inGrace.graceEndsAt)));
    const lapsed = await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } });
    expect(lapsed.status).toBe('Lapsed');
  });

  it('renew opens each owed cover period, on risk at once on an ordinary policy, with no payment initiated', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('N-1') });
    harness.clock.advanceDays(62);
    const state = await harness.client.call('renewCreditLifePolicy', { path: { policyId } });
    expect(state.unpaidPeriods).toEqual([1, 2]);
    const batches = await harness.client.call('getCreditLifeBatches', { path: { policyId } });
    const renewals = batches.data.filter((batch) => batch.type === 'Renewal');
    expect(renewals.map((batch) => batch.status)).toEqual(['Approved', 'Approved']);
    expect(renewals[0]?.outstandingPremium).toBe(state.premiumPerPeriod);
    expect(harness.sandbox.payments.all()).toHaveLength(0);
  });

  it('on a prepaid policy a renewed period stays Pending until paid through schedule pay', async () => {
    const policyId = await openPolicy(prepaidQuotation);
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('Q-1') });
    harness.clock.advanceDays(31);
    const state = await harness.client.call('renewCreditLifePolicy', { path: { policyId } });
    expect(state.status).toBe('Pending');
    const batches = await harness.client.call('getCreditLifeBatches', { path: { policyId } });
    const renewal = batches.data.find((batch) => batch.type === 'Renewal');
    expect(renewal?.status).toBe('Pending');
    const paid = await harness.client.call('payCreditLifeSchedule', {
      path: { scheduleId: String(renewal?.id) },
      body: { reference: 'prepaid-period', cardDetails: card },
    });
    await visit(paid.redirectUrl);
    expect(
      (await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } })).status,
    ).toBe('Active');
  });

  it('renew-and-pay settles exactly one outstanding period', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('O-1') });
    harness.clock.advanceDays(31);
    const result = await harness.client.call('renewAndPayCreditLifePolicy', {
      path: { policyId },
      body: { reference: 'one-period', cardDetails: card },
    });
    expect(result.coverState.unpaidPeriods).toEqual([1]);
    await visit(result.payment.redirectUrl);
    const state = await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } });
    expect(state).toMatchObject({ status: 'Active', unpaidPeriods: [] });
    expect((await status('one-period')).amount).toBe(result.coverState.premiumPerPeriod);
  });

  it('renew-and-pay on a policy with arrears spanning more than one period is rejected', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('T-1') });
    harness.clock.advanceDays(62);
    const response = await raw(harness, 'POST', `/credit-life/policies/${policyId}/renew/pay`, {
      reference: 'two-periods',
      mobileMoneyAccountNumber: '0977123456',
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/schedule pay/);
    expect(harness.sandbox.payments.get('two-periods')).toBeUndefined();
  });

  it('"Renew-and-pay … with arrears spanning more than one period: rejected": the rejected call opens no period and writes no Renewal schedule', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('T-2') });
    harness.clock.advanceDays(62);
    const before = await harness.client.call('getCreditLifeBatches', { path: { policyId } });
    const response = await raw(harness, 'POST', `/credit-life/policies/${policyId}/renew/pay`, {
      reference: 'two-periods-2',
      mobileMoneyAccountNumber: '0977123456',
    });
    expect(response.status).toBe(422);
    const after = await harness.client.call('getCreditLifeBatches', { path: { policyId } });
    expect(after.data.filter((batch) => batch.type === 'Renewal')).toEqual([]);
    expect(after.totalItems).toBe(before.totalItems);
  });

  it('clearing arrears reinstates cover from the date of payment onward, and a loss in the lapsed period stays uncovered', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('L-1') });
    harness.clock.advanceDays(62);
    const lapsed = await harness.client.call('renewCreditLifePolicy', { path: { policyId } });
    expect(lapsed.status).toBe('Lapsed');
    const batches = await harness.client.call('getCreditLifeBatches', { path: { policyId } });
    for (const [index, renewal] of batches.data.filter((b) => b.type === 'Renewal').entries()) {
      const paid = await harness.client.call('payCreditLifeSchedule', {
        path: { scheduleId: renewal.id },
        body: { reference: `arrears-${index}`, cardDetails: card },
      });
      await visit(paid.redirectUrl);
    }
    expect(
      (await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } })).status,
    ).toBe('Active');
    const inLapse = await raw(harness, 'POST', `/credit-life/policies/${policyId}/claims`, {
      partnerLoanReference: 'L-1',
      claimType: 'Death',
      lossDate: String(lapsed.graceEndsAt),
    });
    expect(inLapse.status).toBe(422);
    expect(inLapse.body.message).toMatch(/lapsed/);
    const afterPayment = await harness.client.call('intimateCreditLifeClaim', {
      path: { policyId },
      body: {
        partnerLoanReference: 'L-1',
        claimType: 'Death',
        lossDate: harness.clock.now().toISOString(),
      },
    });
    expect(afterPayment.status).toBe('Intimated');
  });
});

describe('credit-life claims, purchase and register', () => {
  it('a claim is created Intimated with a payable breakdown, and the first document upload moves it to Documented', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', {
      path: { policyId },
      body: loanRow('C-1', { amount: 300_000 }),
    });
    const claim = await harness.client.call('intimateCreditLifeClaim', {
      path: { policyId },
      body: { partnerLoanReference: 'C-1', claimType: 'Retrenchment', lossDate: '2026-03-02' },
    });
    expect(claim.status).toBe('Intimated');
    expect(claim.payable).toMatchObject({
      sumAssured: 250_000,
      percentageOfSumAssured: 50,
      benefitAmount: 125_000,
      uncoveredAmount: 50_000,
    });
    const documented = await harness.client.call('attachCreditLifeClaimDocuments', {
      path: { claimId: claim.id },
      body: { documents: [{ url: 'https://files.example.com/letter.pdf' }] },
    });
    expect(documented.status).toBe('Documented');
    const again = await harness.client.call('attachCreditLifeClaimDocuments', {
      path: { claimId: claim.id },
      body: { documents: [{ url: 'https://files.example.com/statement.pdf' }] },
    });
    expect(again.documents).toHaveLength(2);
  });

  it('buying cover in one call returns client, policy and batch, with the payment Pending', async () => {
    const bought = await harness.client.call('buyCreditLifeCover', {
      body: {
        quotationId: ordinaryQuotation,
        clientId: String([...harness.sandbox.state.clients.values()][0]?.id),
        loans: [loanRow('BUY-1')],
        payment: { reference: 'buy-ok', mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(bought.policy.status).toBe('Active');
    expect(bought.batch?.totalLoans).toBe(1);
    expect(bought.payment?.status).toBe('Pending');
    expect(bought.paymentError ?? null).toBeNull();
  });

  it('when a payment cannot be started on buy-cover the cover still stands and the reason is in paymentError', async () => {
    const bought = await harness.client.call('buyCreditLifeCover', {
      body: {
        quotationId: ordinaryQuotation,
        clientId: String([...harness.sandbox.state.clients.values()][0]?.id),
        loans: [loanRow('BUY-2')],
        payment: { reference: 'buy-bad', mobileMoneyAccountNumber: '12345' },
      },
    });
    expect(bought.policy.status).toBe('Active');
    expect(bought.batch?.status).toBe('Approved');
    expect(bought.payment ?? null).toBeNull();
    expect(bought.paymentError).toMatch(/mobile number/);
  });

  it('the premium register (bordereau) downloads as CSV with one row per loan', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeLoans', {
      path: { policyId },
      body: { loans: [loanRow('X-1'), loanRow('X-2', { fullName: 'Banda, Mary' })] },
    });
    const response = await fetch(`${harness.url}/credit-life/policies/${policyId}/bordereau`, {
      headers: { authorization: 'Bearer test-key' },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('"Banda, Mary"');
  });
});

/* Issue 12: the spec's cover rules exactly, each through the real client over HTTP. */
describe('credit-life cover rules of the spec (issue 12)', () => {
  /** A policy from 2026-03-02 whose periods 1 (grace ends 05-02) and 2 are owed on 2026-05-10. */
  async function lapsedWithTwoPeriodsOwed(reference: string) {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow(reference) });
    harness.clock.set(new Date('2026-05-10T08:00:00.000Z'));
    const state = await harness.client.call('renewCreditLifePolicy', { path: { policyId } });
    expect(state).toMatchObject({ status: 'Lapsed', unpaidPeriods: [1, 2] });
    const batches = await harness.client.call('getCreditLifeBatches', { path: { policyId } });
    const renewals = batches.data.filter((batch) => batch.type === 'Renewal');
    return { policyId, renewals, lapsedFrom: String(state.graceEndsAt) };
  }

  async function payRenewal(scheduleId: string, reference: string): Promise<void> {
    const paid = await harness.client.call('payCreditLifeSchedule', {
      path: { scheduleId },
      body: { reference, cardDetails: card },
    });
    await visit(paid.redirectUrl);
  }

  async function claimOn(policyId: string, partnerLoanReference: string, lossDate: string) {
    return raw(harness, 'POST', `/credit-life/policies/${policyId}/claims`, {
      partnerLoanReference,
      claimType: 'Death',
      lossDate,
    });
  }

  it('a loss dated inside a lapsed window stays uncovered even after the arrears are later paid', async () => {
    const { policyId, renewals, lapsedFrom } = await lapsedWithTwoPeriodsOwed('LW-1');
    for (const [index, renewal] of renewals.entries()) await payRenewal(renewal.id, `lw-${index}`);
    const claim = await claimOn(policyId, 'LW-1', '2026-05-05');
    expect(lapsedFrom.slice(0, 10)).toBe('2026-05-02');
    expect(claim.status).toBe(422);
    expect(claim.body.errors?.lossDate?.[0]).toMatch(/lapsed period/);
  });

  it('paying the oldest of two overdue periods: InGrace, a loss today is accepted, the lapsed window stays uncovered (issue 36)', async () => {
    const { policyId, renewals } = await lapsedWithTwoPeriodsOwed('LW-2');
    await payRenewal(String(renewals[0]?.id), 'lw-oldest');
    // Period 2 is still within its grace days, so the policy reads InGrace again...
    const state = await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } });
    expect(state).toMatchObject({ status: 'InGrace', unpaidPeriods: [2] });
    // ...but the loss of 05-05 fell while cover had lapsed: still uncovered.
    const claim = await claimOn(policyId, 'LW-2', '2026-05-05');
    expect(claim.status).toBe(422);
    expect(claim.body.errors?.lossDate?.[0]).toMatch(/lapsed period/);
    // One rule for state and claims: on risk InGrace, so a loss today (the payment day) is taken.
    const today = await claimOn(policyId, 'LW-2', '2026-05-10');
    expect(today.status).toBe(200);
    expect(today.body.status).toBe('Intimated');
  });

  it('paying the oldest of two overdue periods when the newer is past its grace too reinstates nothing', async () => {
    const { policyId, renewals } = await lapsedWithTwoPeriodsOwed('LW-5');
    // 2026-06-05: period 2 (from 05-02) is past its 30 grace days as well.
    harness.clock.set(new Date('2026-06-05T08:00:00.000Z'));
    await payRenewal(String(renewals[0]?.id), 'lw5-oldest');
    const state = await harness.client.call('getCreditLifePolicyStatus', { path: { policyId } });
    expect(state.status).toBe('Lapsed');
    const claim = await claimOn(policyId, 'LW-5', '2026-06-05');
    expect(claim.status).toBe(422);
    expect(claim.body.errors?.lossDate?.[0]).toMatch(/lapsed period/);
  });

  it('"cover reinstated from the date of payment onward": a loss dated on the day the last arrear was paid is covered', async () => {
    const { policyId, renewals } = await lapsedWithTwoPeriodsOwed('LW-4');
    // Paid at 08:00; a loss date is a day, so that day is covered, whatever the hour.
    for (const [index, renewal] of renewals.entries()) await payRenewal(renewal.id, `pd-${index}`);
    const sameDay = await claimOn(policyId, 'LW-4', '2026-05-10');
    expect(sameDay.status).toBe(200);
    expect(sameDay.body.status).toBe('Intimated');
  });

  it('a loss dated before the loan and its policy went on cover is refused', async () => {
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', {
      path: { policyId },
      body: { ...loanRow('BC-1'), startDate: '2026-03-02' },
    });
    harness.clock.set(new Date('2026-03-20T08:00:00.000Z'));
    const claims = harness.sandbox.state.claims.size;
    const before = await claimOn(policyId, 'BC-1', '2026-01-02');
    expect(before.status).toBe(422);
    expect(before.body.errors?.lossDate?.[0]).toMatch(/before the loan and its policy/);
    expect(harness.sandbox.state.claims.size).toBe(claims);
  });

  it('reinstatement runs from the payment date: a loss after the last arrear is paid is covered, one the day before is not', async () => {
    const { policyId, renewals } = await lapsedWithTwoPeriodsOwed('LW-3');
    for (const [index, renewal] of renewals.entries()) await payRenewal(renewal.id, `rs-${index}`);
    harness.clock.set(new Date('2026-05-12T08:00:00.000Z'));
    const before = await claimOn(policyId, 'LW-3', '2026-05-09T12:00:00.000Z');
    expect(before.status).toBe(422);
    const after = await claimOn(policyId, 'LW-3', '2026-05-11T12:00:00.000Z');
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('Intimated');
  });

  it('a claim for a loss inside an unpaid (Pending) prepaid period is refused with the spec error body', async () => {
    const policyId = await openPolicy(prepaidQuotation);
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('PP-1') });
    harness.clock.advanceDays(31);
    const state = await harness.client.call('renewCreditLifePolicy', { path: { policyId } });
    expect(state.status).toBe('Pending');
    const claim = await claimOn(policyId, 'PP-1', harness.clock.now().toISOString());
    expect(claim.status).toBe(422);
    expect(claim.body).toMatchObject({ status: 422 });
    expect(claim.body.errors?.lossDate?.[0]).toMatch(/prepaid cover period.*not paid/);
    // A loss in the first period, funded by the loan batch itself, stays claimable.
    const covered = await claimOn(policyId, 'PP-1', '2026-03-20');
    expect(covered.status).toBe(200);
  });

  it('a claim intimated later than the product’s claimNotificationDays after the loss is refused with a clear error', async () => {
    const [product] = await harness.client.call('getCreditLifeProducts');
    const days = Number(product?.claimNotificationDays);
    const policyId = await openPolicy();
    await harness.client.call('placeSingleLoan', { path: { policyId }, body: loanRow('CN-1') });
    harness.clock.set(new Date(Date.parse('2026-03-03T08:00:00.000Z') + (days + 1) * 86_400_000));
    const late = await claimOn(policyId, 'CN-1', '2026-03-03T08:00:00.000Z');
    expect(late.status).toBe(422);
    expect(late.body.errors?.lossDate?.[0]).toBe(
      `Claims must be intimated within ${days} days of the loss; this loss was ${days + 1} days ago`,
    );
  });

  it('buying credit-life cover with a payment that cannot be started keeps the cover and gives the reason in paymentError', async () => {
    const buy = (payment: Record<string, unknown>) =>
      harness.client.call('buyCreditLifeCover', {
        body: {
          quotationId: ordinaryQuotation,
          client: {
            firstName: 'Mutinta',
            lastName: 'Hamoonga',
            phoneNumber: '260955000333',
            email: 'mh@example.com',
            idNumber: '777777/77/1',
            idType: 'NRC',
          },
          startDate: '2026-03-02',
          loans: [loanRow('BUY-1')],
          payment: { reference: `buy-${String(payment.tag)}`, ...payment },
        },
      });
    // Malformed: both mobile money and card.
    const malformed = await buy({
      tag: 'both',
      mobileMoneyAccountNumber: '0977123456',
      cardDetails: card,
    });
    expect(malformed.policy.status).toBe('Active');
    expect(malformed.batch?.loans?.[0]?.status).toBe('Active');
    expect(malformed.payment ?? null).toBeNull();
    expect(malformed.paymentError).toMatch(/mobile money or card/);
    // Refused by the gateway: not a Zambian mobile number.
    const refused = await buy({ tag: 'bad-number', mobileMoneyAccountNumber: '12345' });
    expect(refused.policy.status).toBe('Active');
    expect(refused.paymentError).toMatch(/Zambian mobile number/);
  });
});
