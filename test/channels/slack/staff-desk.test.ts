import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { STAFF_TOPICS } from '../../../flows/index.js';
import { money } from '../../../flows/support.js';
import { createSlackChannel, type SlackChannel } from '../../../src/channels/slack/index.js';
import { SEED } from '../../../src/sandbox/index.js';
import { CountingEngine } from '../../support/counting-engine.js';
import { createRealStack, type RealStack } from '../telegram/real-stack.js';
import { silentLogger } from '../telegram/test-support.js';
import { FakeSlack } from './fake-slack.js';
import { signSlackRequest } from './sign-slack-request.js';

const SIGNING_SECRET = 'staff-desk-secret';
const TEAM = 'T0DESK';
const STAFF = 'U0DESK';
const DM = 'D0DIRECT';
const SHARED = 'C0SHARED';

interface Block {
  readonly type: string;
  readonly text?: { readonly text: string };
  readonly fields?: readonly { readonly text: string }[];
  readonly elements?: readonly { readonly value?: string; readonly text?: unknown }[];
}
interface Answer {
  readonly text: string;
  readonly blocks: readonly Block[];
}

let stack: RealStack;
let engine: CountingEngine;
let slack: FakeSlack;
let channel: SlackChannel;
let server: FastifyInstance;

beforeEach(async () => {
  stack = await createRealStack();
  engine = new CountingEngine(stack.engine);
  slack = new FakeSlack();
  await slack.start();
  channel = createSlackChannel({
    botToken: 'xoxb-desk',
    signingSecret: SIGNING_SECRET,
    allowedUsers: [STAFF],
    engine,
    deskFlow: 'staff-desk',
    deskTopics: STAFF_TOPICS,
    logger: silentLogger,
    clientOptions: { slackApiUrl: `${slack.baseUrl}/api/`, retryConfig: { retries: 0 } },
  });
  server = Fastify();
  channel.registerRoutes(server);
  await server.ready();
});

afterEach(async () => {
  await channel.stop();
  await server.close();
  await slack.stop();
  await stack.close();
});

let sent = 0;

/** Posts a request to the Slack route, signed as Slack signs it. */
function postSigned(body: string, contentType = 'application/x-www-form-urlencoded') {
  const timestamp = String(Math.floor(Date.now() / 1_000));
  return server.inject({
    method: 'POST',
    url: '/slack/events',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signSlackRequest(SIGNING_SECRET, timestamp, body),
    },
    payload: body,
  });
}

/** Sends `/insure <text>` signed, waits for the answer on the response_url and returns it. */
async function insure(text: string, channelId = DM): Promise<Answer> {
  sent += 1;
  const body = new URLSearchParams({
    command: '/insure',
    text,
    team_id: TEAM,
    user_id: STAFF,
    channel_id: channelId,
    response_url: `${slack.baseUrl}/respond/${sent}`,
    trigger_id: `trigger-${sent}`,
  }).toString();
  const before = slack.callsTo('/respond').length;
  const response = await postSigned(body);
  expect(response.statusCode).toBe(200);
  if (response.body !== '') return response.json() as Answer;
  await channel.stop();
  const answers = slack.callsTo('/respond').slice(before);
  expect(answers).toHaveLength(1);
  const answer = answers[0]?.body as Answer;
  // Staff read dates as 18/11/2026 in every block, never the insurer's ISO form.
  expect(JSON.stringify(answer)).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  return answer;
}

/** Taps a choice button, the way Slack posts a block action; waits until it is handled. */
async function postTap(value: string): Promise<void> {
  sent += 1;
  const payload = JSON.stringify({
    type: 'block_actions',
    team: { id: TEAM, domain: 'desk' },
    user: { id: STAFF, team_id: TEAM },
    channel: { id: DM, name: 'directmessage' },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: `trigger-${sent}`,
    response_url: `${slack.baseUrl}/respond/${sent}`,
    actions: [
      {
        type: 'button',
        action_id: `choice:${value}`,
        block_id: 'b1',
        value,
        text: { type: 'plain_text', text: value },
        action_ts: '1.0',
      },
    ],
  });
  const response = await postSigned(new URLSearchParams({ payload }).toString());
  expect(response.statusCode).toBe(200);
  await channel.stop();
}

const headline = (answer: Answer) => answer.blocks[0]?.text?.text;
const fields = (answer: Answer) =>
  answer.blocks.flatMap((block) => block.fields ?? []).map((field) => field.text);
const buttons = (answer: Answer) =>
  answer.blocks.flatMap((block) => block.elements ?? []).map((element) => element.value);

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** An insurer's ISO date as staff read it on the desk: `2026-11-18` → `18/11/2026`. */
const onDesk = (iso: string | null | undefined) =>
  (iso ?? '').slice(0, 10).split('-').reverse().join('/');

/** A paid motor policy on the seeded vehicle; resolves its number and payment reference. */
async function paidMotorPolicy(): Promise<{ policyNumber: string; reference: string }> {
  const { client } = stack;
  const holder = (
    await client.call('getIndividuals', { query: { PhoneNumber: SEED.individual.phoneNumber } })
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
      startDate: today(),
      clientId: String(holder.id),
      risks: [{ vehicleId: String(vehicle.id) }],
    },
  });
  const reference = `DESK-${String(quote.id)}`;
  await client.call('payQuotation', {
    path: { quoteId: String(quote.id) },
    body: { reference, payment: { method: 'External' } },
  });
  const { policyNumber } = await client.call('getTransaction', { path: { reference } });
  if (!policyNumber) throw new Error('the sandbox issued no policy');
  return { policyNumber, reference };
}

it('answers a not-found and then txn, household and policy lookups each as a fresh query', async () => {
  const { policyNumber, reference } = await paidMotorPolicy();

  const missing = await insure('policy NO-SUCH-POLICY');
  expect(headline(missing)).toBe('Nothing found for NO-SUCH-POLICY.');
  expect(missing.text).toContain(
    'Usage: policy <number or id, plate, loan reference, NRC or phone>',
  );
  // What a staff member can do next, never a customer's "Change my answer" (issue 40).
  expect(buttons(missing)).toEqual(['another', 'help', 'end']);

  // "Commands" lists every command's usage, privately.
  const helped = slack.callsTo('/respond').length;
  await postTap('help');
  const help = JSON.stringify(slack.callsTo('/respond').slice(helped));
  expect(help).toContain('Desk commands');
  expect(help).toContain('Usage: batch <policy number> <batch or schedule number>');
  expect(help).toContain('ephemeral');

  // Staff tap "Another lookup": a modal with a text field opens, where they can type (issue 30)…
  const opened = slack.callsTo('/api/views.open').length;
  const answered = slack.callsTo('/respond').length;
  await postTap('another');
  expect(slack.callsTo('/api/views.open')).toHaveLength(opened + 1);
  expect(slack.callsTo('/respond')).toHaveLength(answered);

  // …and the next slash command is a fresh query all the same.
  const txn = await insure(`txn ${reference}`);
  expect(headline(txn)).toBe(`*Payment ${reference}* · Success`);
  expect(fields(txn)).toEqual(
    expect.arrayContaining([`*Policy*\n${policyNumber}`, '*Method*\nExternal']),
  );

  // The seeded household's dates move with the sandbox clock: read them from the insurer.
  const seeded = await stack.client.call('getGroupFuneralHouseholdByNrc', {
    query: { nrcNumber: SEED.funeralPrincipalNrc },
  });
  const period = `${onDesk(seeded.policy?.startDate)} to ${onDesk(seeded.policy?.endDate)}`;
  const household = await insure(`household ${SEED.funeralPrincipalNrc}`);
  expect(headline(household)).toBe(`*Household policy ${seeded.policy?.policyNumber}* · Active`);
  expect(fields(household)).toEqual([
    '*Principal*\nChanda Mulenga',
    `*Period*\n${period}`,
    `*Premium*\nZMW ${money(63)}`,
    `*Principal*\nChanda Mulenga · cover ZMW ${money(15_000)}`,
    `*Spouse*\nBwalya Mulenga · cover ZMW ${money(15_000)}`,
    `*Child*\nMutale Mulenga · cover ZMW ${money(7_500)}`,
  ]);

  const policy = await insure(`policy ${policyNumber}`);
  expect(headline(policy)).toBe(`*Policy ${policyNumber}* · Active`);
  const shown = fields(policy);
  expect(shown).toContain('*Policyholder*\nMwila Banda');
  expect(shown).toContain(`*Vehicle*\n${SEED.vehicle.registrationNumber}`);
  expect(shown).toContain('*Payment*\nPaid');
  // The product by name, never its id.
  const product = shown.find((field) => field.startsWith('*Product*'));
  expect(product).toMatch(/^\*Product\*\n\D/);
});

it('finds a policy by its plate and by its holder’s phone, masking the holder in a channel', async () => {
  const { policyNumber } = await paidMotorPolicy();
  const byPlate = await insure(`policy ${SEED.vehicle.registrationNumber}`, SHARED);
  expect(headline(byPlate)).toBe(`*Policy ${policyNumber}* · Active`);
  expect(fields(byPlate)).toContain('*Policyholder*\nM. B.');

  const byPhone = await insure('policy 0971234567');
  expect(headline(byPhone)).toBe(`*Policy ${policyNumber}* · Active`);
});

it('finds a claim by the CLC number staff quote and lists recent claims', async () => {
  const { client } = stack;
  const quotation = (await client.call('getCreditLifeQuotations')).find(
    (q) => q.status === 'Approved' && !q.requiresPrepayment,
  );
  if (!quotation) throw new Error('the sandbox lost its quotations');
  // Started before the loss: a loss before cover began is refused (issue 24).
  const credit = await client.call('createCreditLifePolicy', {
    body: { quotationId: String(quotation.id), startDate: daysAgo(20) },
  });
  await client.call('placeLoans', {
    path: { policyId: credit.id },
    body: {
      loans: [
        {
          fullName: 'Desk Borrower',
          nrcNumber: '444444/10/2',
          dateOfBirth: '1985-05-05',
          amount: 15_000,
          startDate: daysAgo(200),
          endDate: '2027-12-31',
          partnerLoanReference: 'KL-DESK',
          interestRate: 0.28,
        },
      ],
    },
  });
  const claim = await client.call('intimateCreditLifeClaim', {
    path: { policyId: credit.id },
    body: { partnerLoanReference: 'KL-DESK', claimType: 'Death', lossDate: daysAgo(10) },
  });

  const found = await insure(`claim ${claim.claimNumber.toLowerCase()}`);
  expect(headline(found)).toBe(`*Claim ${claim.claimNumber}* · Intimated`);
  expect(fields(found)).toEqual(
    expect.arrayContaining(['*Loan or member*\nKL-DESK', `*Date of loss*\n${onDesk(daysAgo(10))}`]),
  );

  const recent = await insure('claims');
  // Newest first: the claim just made heads the list (the sandbox seeds a few of its own).
  expect(headline(recent)).toMatch(/^\*Recent claims\* · \d+$/);
  expect(recent.text.split('\n')[1]).toMatch(
    new RegExp(`^${claim.claimNumber} · credit-life · Intimated · ZMW [\\d,.]+$`),
  );
});

it('lists every command with an example on /insure help, without touching a session', async () => {
  const help = await insure('help');
  // Every subcommand the desk understands (a staff topic added later must reach the help too).
  for (const command of [...STAFF_TOPICS, 'help']) {
    expect(help.text).toContain(`/insure ${command}`);
  }
  expect(slack.callsTo('/respond')).toEqual([]);
});

// Issue 26: a channel only carries messages; a slash command was three turns steered by the staff
// menu, and is now one start of the staff desk (FlowStart.command).
it('calls the engine once per slash command, per tap and per App Home opened', async () => {
  engine.reset();
  await insure('claims');
  expect(engine.calls).toBe(1);

  engine.reset();
  await postTap('policy');
  expect(engine.calls).toBe(1);

  engine.reset();
  const home = {
    type: 'event_callback',
    team_id: TEAM,
    api_app_id: 'A1',
    event_id: 'Ev-home',
    event_time: 1,
    event: { type: 'app_home_opened', user: STAFF, channel: DM, tab: 'home' },
  };
  expect((await postSigned(JSON.stringify(home), 'application/json')).statusCode).toBe(200);
  await channel.stop();
  expect(engine.calls).toBe(1);
});
