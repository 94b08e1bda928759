/** What the sandbox does with a mobile-money payment, chosen by the payer's number. */
export type TestPaymentOutcome = 'declined' | 'insufficient-funds' | 'expires' | 'success';

/** One documented test number. */
export interface SandboxTestMsisdn {
  /** Any number whose last digit is this one gets the outcome. */
  readonly endsWith: string;
  /** An example number in the form the API uses. */
  readonly example: string;
  readonly outcome: TestPaymentOutcome;
  readonly description: string;
}

/**
 * The sandbox's test MSISDNs: the last digit of the mobile-money number chooses the outcome.
 * Listed by the README, `npm run sandbox` and the web simulator.
 */
export const SANDBOX_TEST_MSISDNS: readonly SandboxTestMsisdn[] = [
  {
    endsWith: '1',
    example: '260971000001',
    outcome: 'declined',
    description: 'the customer declines the prompt; the payment ends Failed',
  },
  {
    endsWith: '2',
    example: '260971000002',
    outcome: 'insufficient-funds',
    description: 'insufficient funds; the payment ends Failed',
  },
  {
    endsWith: '3',
    example: '260971000003',
    outcome: 'expires',
    description: 'the customer never answers; the payment stays Pending, then expires as Failed',
  },
  {
    endsWith: '*',
    example: '260971234567',
    outcome: 'success',
    description: 'the payment succeeds and the policy is issued',
  },
];

/** The outcome the sandbox gives a mobile-money payment from `msisdn`. */
export function outcomeForMsisdn(msisdn: string): TestPaymentOutcome {
  const last = msisdn.trim().slice(-1);
  const match = SANDBOX_TEST_MSISDNS.find((entry) => entry.endsWith === last);
  return match?.outcome ?? 'success';
}
