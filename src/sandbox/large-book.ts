import { createCreditLifePolicy } from './credit-life.js';
import { addDays, isoDate } from './dates.js';
import { createGroupLifePolicy } from './group-life.js';
import type { SandboxContext } from './state.js';

/** Master policies of the large book: half group life, half credit life. */
export const LARGE_BOOK_MASTER_POLICIES = 50;

/**
 * The holder `i` (0-based) of a large book: an NRC and a phone no demo or test record uses.
 * Each holds one travel policy, one motor policy, one group-life membership and one loan.
 */
export function largeBookHolder(i: number): { nrcNumber: string; phoneNumber: string } {
  return {
    nrcNumber: `${200000 + i}/77/1`,
    phoneNumber: `26097${String(i).padStart(7, '0')}`,
  };
}

/**
 * Seeds a book of `size` travel and `size` motor policies, and {@link LARGE_BOOK_MASTER_POLICIES}
 * master policies with `size` members and `size` loans between them, so the cost of a cover
 * lookup can be measured against a real partner's book (bench, SANDBOX_BOOK_SIZE). Written
 * straight into the state (the demo book goes through the domain's own calls; 400,000 records
 * would take minutes that way). Separate from the demo book, which it leaves as it is.
 */
export function seedLargeBook(ctx: SandboxContext, size: number): void {
  const { state } = ctx;
  const now = ctx.clock.now();
  const start = isoDate(addDays(now, -30));
  const end = isoDate(addDays(now, 335));
  const stamp = addDays(now, -30).toISOString();
  const groupQuote = [...state.groupLifeQuotations.values()].find((q) => q.status === 'Approved');
  const creditQuote = [...state.creditLifeQuotations.values()].find(
    (q) => q.status === 'Approved' && !q.requiresPrepayment,
  );
  if (!groupQuote || !creditQuote) throw new Error('the base seed has no approved quotations');
  const half = LARGE_BOOK_MASTER_POLICIES / 2;
  const groupPolicies = Array.from({ length: half }, () =>
    createGroupLifePolicy(ctx, { quotationId: groupQuote.id, startDate: start }),
  );
  const creditPolicies = Array.from({ length: half }, () =>
    createCreditLifePolicy(ctx, { quotationId: creditQuote.id, startDate: start }),
  );
  const premiums = { basicPremium: 950, premiumLevy: 47.5, grossPremium: 997.5, currency: 'ZMW' };
  let loanId = Math.max(0, ...state.loans.keys());
  for (let i = 0; i < size; i += 1) {
    const { nrcNumber, phoneNumber } = largeBookHolder(i);
    const policyHolder = {
      name: `Large Book ${i}`,
      idType: 'NRC',
      idNumber: nrcNumber,
      phone: phoneNumber,
    };
    for (const line of ['motor', 'travel'] as const) {
      const id = `${line === 'motor' ? 'lbm' : 'lbt'}_${i}`;
      state.policies.set(id, {
        id,
        line,
        policyNumber: `${line === 'motor' ? 'MTR' : 'TRV'}-LB-${String(i).padStart(6, '0')}`,
        status: 'Active',
        premiumStatus: 'Paid',
        clientId: null,
        quotationId: null,
        registrationNumbers: line === 'motor' ? [`LB ${i}`] : [],
        ...(line === 'travel' ? { destination: 'South Africa' } : {}),
        policyHolder,
        startDate: start,
        endDate: end,
        ...premiums,
        createdAt: stamp,
        updatedAt: stamp,
        approvedDate: stamp,
      });
    }
    const group = groupPolicies[i % half];
    const credit = creditPolicies[i % half];
    if (!group || !credit) continue;
    const memberId = `lbg_${i}`;
    state.members.set(memberId, {
      id: memberId,
      policyId: group.id,
      batchId: 'large-book',
      fullName: `Large Book ${i}`,
      nrcNumber,
      dateOfBirth: '1985-01-01',
      annualSalary: 60000,
      sumAssured: 180000,
      premium: 540,
      status: 'Active',
      removedAt: null,
    });
    loanId += 1;
    state.loans.set(loanId, {
      id: loanId,
      policyId: credit.id,
      batchId: 'large-book',
      clientName: `Large Book ${i}`,
      nrcNumber,
      dateOfBirth: '1985-01-01',
      amount: 20000,
      coveredAmount: 20000,
      premiumRate: 0.02,
      netPremium: 400,
      levy: 20,
      grossPremium: 420,
      status: 'Active',
      startDate: start,
      endDate: end,
      partnerLoanReference: `KL-LB-${i}`,
      interestRate: null,
      closedAt: null,
    });
  }
}
