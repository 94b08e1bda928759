import { readFileSync } from 'node:fs';
import { money } from '../../flows/support.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { daysAgo } from '../flows/fixtures.js';
import { sandboxOf, type TestServer } from '../server/test-server.js';
import { throughStillWorking, type UssdCaller, ussdCaller } from '../server/ussd-caller.js';
import { eventually } from '../support/eventually.js';

/*
 * The impersonator walk of issue 35: for every person of the README's demo table, a fresh USSD
 * phone types that person's NRC (and plate) into every flow that asks for one, never pays, and,
 * after a full holdings sync, walks My cover, claims, cover by NRC and motor by plate again. The
 * finder lists every screen or SMS that carries a demo person's data the phone did not type
 * itself, and every SMS with a person's data sent anywhere but to that person's own phone.
 */

const { motor, funeral, groupLife, creditLife, claims } = DEMO_BOOK;

/** A person of the README's demo table, with what only their own phone may be told. */
export interface WalkPerson {
  readonly name: string;
  readonly nrc: string;
  /** The phone on record, `260…`. */
  readonly phone: string;
  /** Plates of their cars (typed by the impersonator into the motor flows). */
  readonly plates: readonly string[];
  /** Their claims' numbers (typed by the impersonator into claim by number). */
  readonly claimNumbers: readonly string[];
  /** Names, numbers, plates and amounts of theirs no other phone may be shown or sent. */
  readonly secrets: readonly string[];
  /** What My cover lists from their own phone. */
  readonly own: readonly string[];
}

/** A leak the finder found: whose data, where, and the words around it. */
export interface Leak {
  readonly person: string;
  readonly item: string;
  /** `screen <phone> <flow>` or `sms to <phone>`. */
  readonly where: string;
  readonly excerpt: string;
}

/** Everything one walk saw and what the finder made of it. */
export interface WalkResult {
  readonly leaks: readonly Leak[];
  /** Flows that did not reach the screen they were meant to (the walk fell short, not the bot). */
  readonly shortfalls: readonly string[];
  /** The last screen of My cover from each person's own phone, after the walk. */
  readonly ownCover: ReadonlyMap<string, string>;
  /** Track my claims (loans', then members') from each person's own phone, after the walk. */
  readonly ownClaims: ReadonlyMap<string, string>;
  /** Each quoted plate's owner buying it: the screen reached. */
  readonly ownerBuys: ReadonlyMap<string, string>;
  /** How many screens and SMS the finder read (the walk is no walk if this is tiny). */
  readonly read: { readonly screens: number; readonly sms: number };
  /** Screens that refused a probe as asked too often (a limit left on: the walk proves less). */
  readonly tooOften: readonly string[];
}

const national = (msisdn: string) => `0${msisdn.slice(3)}`;
const keyed = (nrc: string) => nrc.replaceAll('/', '');
const slashed = (typed: string) =>
  /^\d{9}$/.test(typed) ? `${typed.slice(0, 6)}/${typed.slice(6, 8)}/${typed.slice(8)}` : typed;

/** The rows of the README's "Demo data" table: the details column's words, row by row. */
function readmeRows(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Demo data'), readme.indexOf('## Your cover'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---'))
    .map((line) => line.split('|')[2]?.trim() ?? '');
}

/**
 * The README's people, each with the rows that follow theirs up to the next person (the table
 * lists a person's cars and loans under them); secrets are the rows' quoted words, less the new
 * car's plate (nobody's yet), plus what the sandbox holds for their NRC (household members,
 * sums assured, loan amounts, claim payouts).
 */
export function readmePeople(server: TestServer): WalkPerson[] {
  const found: { name: string; nrc: string; phone: string; rows: string[] }[] = [];
  for (const row of readmeRows()) {
    const name = /([A-Z][a-z]+ [A-Z][a-z]+), (NRC|phone) `/.exec(row)?.[1];
    const nrc = /NRC `([\d/]+)`/.exec(row)?.[1];
    const phone = /phone `(0\d{9})`/.exec(row)?.[1];
    if (name && nrc && phone) {
      found.push({ name, nrc, phone: `260${phone.slice(1)}`, rows: [row] });
    } else if (!/never registered/.test(row)) found.at(-1)?.rows.push(row);
  }
  const state = sandboxOf(server).state;
  return found.map(({ name, nrc, phone, rows }) => {
    const quoted = rows.flatMap((row) => [...row.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''));
    const amounts = new Set<string>();
    const names = new Set<string>([name, name.split(' ')[1] ?? name]);
    const household = state.households.get(nrc) as { members?: { fullName: string }[] } | undefined;
    for (const member of household?.members ?? []) names.add(member.fullName);
    // What My cover lists for them: their cars' and household's policies, memberships, loans.
    const own = new Set<string>(
      rows.flatMap((row) => [...row.matchAll(/`((?:MTR|GF)-[\w-]+)`/g)].map((m) => m[1] ?? '')),
    );
    for (const member of state.members.values()) {
      if (member.nrcNumber !== nrc) continue;
      amounts.add(money(member.sumAssured));
      const policy = state.groupLifePolicies.get(member.policyId);
      if (policy) own.add(String(policy.policyNumber));
    }
    const loans = [...state.loans.values()].filter((loan) => loan.nrcNumber === nrc);
    for (const loan of loans) {
      amounts.add(money(loan.amount));
      own.add(loan.partnerLoanReference);
    }
    const claimNumbers = quoted.filter((word) => /^[A-Z]+C-DEMO-\d+$/.test(word));
    for (const claim of state.claims.values()) {
      if (!claimNumbers.includes(claim.claimNumber)) continue;
      const payable = (claim as { payable?: Record<string, unknown> }).payable ?? {};
      for (const value of Object.values(payable)) {
        if (typeof value === 'number' && value > 0) amounts.add(money(value));
      }
    }
    const plates = quoted.filter((word) => /^[A-Z]{3} \d{4}$/.test(word));
    return {
      name,
      nrc,
      phone,
      plates,
      claimNumbers,
      secrets: [
        ...names,
        nrc,
        keyed(nrc),
        national(phone),
        phone,
        ...quoted.filter((word) => word !== nrc && word !== national(phone)),
        ...own,
        ...amounts,
      ],
      own: [...own],
    };
  });
}

/** What one phone saw: every screen, with the flow and what it typed on the way. */
export interface Seen {
  readonly phone: string;
  readonly flow: string;
  readonly screen: string;
  readonly typed: readonly string[];
}

/** A step: a RegExp picks the option whose label matches, a string is typed. */
type Step = RegExp | string;

/** The number of the option whose label matches (`1. Label`, `98 More`), or undefined. */
function optionOf(screen: string, label: RegExp): string | undefined {
  for (const line of screen.split('\n')) {
    const option = /^(\d+)\.? (.+)$/.exec(line);
    if (option?.[1] && option[2] && label.test(option[2])) return option[1];
  }
  return undefined;
}

/** A RegExp matching `label` and nothing more. */
const exactly = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** A USSD phone that dials afresh for each path and keeps what it saw. */
class Phone {
  readonly seen: Seen[] = [];
  constructor(
    private readonly server: TestServer,
    readonly msisdn: string,
  ) {}

  /** Waits for an SMS to this phone that says `what`. */
  async toldBySms(what: RegExp): Promise<void> {
    const outbox = sandboxOf(this.server).smsOutbox;
    await eventually(`an SMS to the impersonator saying ${what}`, () =>
      outbox.list(`+${this.msisdn}`).some((sms) => what.test(sms.message)),
    );
  }

  /** Dials, starting again over any unfinished session. */
  private async dial(): Promise<{ caller: UssdCaller; screen: string }> {
    const caller = ussdCaller(() => this.server.url, 'impersonator', `+${this.msisdn}`);
    let screen = await caller.dial();
    const again = /unfinished session/i.test(screen) ? optionOf(screen, /start again/i) : undefined;
    if (again) screen = await caller.send(again);
    return { caller, screen };
  }

  /**
   * Dials and takes `steps`, then answers each screen from `answers` (by its first line) until
   * `stop` shows or nothing answers; returns the last screen.
   */
  async fill(
    flow: string,
    steps: readonly Step[],
    answers: ReadonlyArray<readonly [RegExp, Step]> = [],
    stop = /^END /,
  ): Promise<string> {
    const typed: string[] = [];
    let { caller, screen } = await this.dial();
    this.seen.push({ phone: this.msisdn, flow, screen, typed: [] });
    const take = async (step: Step) => {
      const input = typeof step === 'string' ? step : optionOf(screen, step);
      if (input === undefined) return false;
      if (typeof step === 'string') typed.push(step);
      const shown: string[] = [];
      screen = await throughStillWorking(caller, await caller.send(input), shown);
      const sofar = [...typed];
      for (const one of shown)
        this.seen.push({ phone: this.msisdn, flow, screen: one, typed: sofar });
      return true;
    };
    for (const step of steps) if (!(await take(step))) return screen;
    for (let turn = 0; turn < 30 && !stop.test(screen) && !/^END /.test(screen); turn += 1) {
      const question = screen.replace(/^(CON|END) /, '').split('\n')[0] ?? '';
      const answer = answers.find(([pattern]) => pattern.test(question))?.[1];
      const before = screen;
      if (answer === undefined || !(await take(answer))) break;
      // The same question again (an answer refused): answering it again changes nothing.
      if (screen.replace(/\nPlease pick one\./, '') === before.replace(/\nPlease pick one\./, ''))
        break;
    }
    return screen;
  }

  /**
   * Every screen reachable from the menu through `roots`, breadth first: each option but those
   * `skip` names, and on a question every answer `texts` gives; a screen seen before is not
   * opened again, and at most `budget` paths are walked. True when it walked them all.
   */
  async crawl(
    flow: string,
    roots: readonly Step[][],
    texts: ReadonlyArray<readonly [RegExp, readonly string[]]>,
    skip: RegExp,
    budget = 120,
  ): Promise<boolean> {
    const opened = new Set<string>();
    let paths: Step[][] = [...roots];
    let walked = 0;
    while (paths.length > 0 && walked < budget) {
      const next: Step[][] = [];
      for (const path of paths) {
        if (walked >= budget) break;
        walked += 1;
        const screen = await this.fill(flow, path);
        const body = screen.replace(/^(CON|END) /, '').replace(/^Please pick one\.\n/m, '');
        if (/^END /.test(screen) || opened.has(body)) continue;
        opened.add(body);
        // Screens where one option stands for the others (a cover type, a period): the first.
        const firstOnly = /^(Choose cover|Vehicle use|Choose a period|Policyholder mobile)/.test(
          body,
        );
        const options = body
          .split('\n')
          .map((line) => /^(\d+)\.? (.+)$/.exec(line))
          .filter((m): m is RegExpExecArray => Boolean(m?.[1] && m[2]))
          .filter((m) => !skip.test(m[2] ?? ''))
          .slice(0, firstOnly ? 1 : undefined);
        const question = body.split('\n')[0] ?? '';
        const typed = texts.find(([pattern]) => pattern.test(question))?.[1] ?? [];
        if (/Pay with/.test(body)) continue; // never pays
        for (const option of options) next.push([...path, exactly(option[2] ?? '')]);
        // Typed answers go where a question waits for words (a colon, or nothing to pick).
        if (options.length === 0 || question.endsWith(':')) {
          for (const text of typed) next.push([...path, text]);
        }
      }
      paths = next;
    }
    return paths.length === 0;
  }
}

/** A plate no one holds, for the impersonator of `index` to quote. */
const freshPlate = (index: number) => `IMP ${String(4100 + index)}`;

/** Motor new cover up to its plate: priced first (a private car, one quarter), then the plate. */
const MOTOR_TO_PLATE: readonly Step[] = [
  /Motor/,
  /New cover/,
  /Third Party$/,
  /Private/,
  /1 quarter/,
];

/** The motor purchase's answers up to "Pay with", as `nrc`'s holder named Kapya Tembo. */
const motorAnswers = (nrc: string): ReadonlyArray<readonly [RegExp, Step]> => [
  [/make, model and year/i, 'Toyota Corolla 2015'],
  [/Vehicle use/i, /Private/],
  [/Chassis/i, 'CH7730115'],
  [/Engine number/i, 'EN7730115'],
  [/Choose a period/i, /1 quarter/],
  [/mobile number/i, /My number/],
  // An NRC on record with another phone (issue 35): go on as a new holder, proving nothing.
  [/on record with another phone/i, /new holder/i],
  [/NRC/, keyed(nrc)],
  [/full name/i, 'Kapya Tembo'],
  [/e-?mail/i, 'kapya@example.com'],
  [/Correct\?/, /Yes/],
  [/^Is .* your /, /Yes/],
];

/** The travel purchase's answers up to "Pay with", with `nrc` as the holder's. */
const travelAnswers = (nrc: string): ReadonlyArray<readonly [RegExp, Step]> => [
  [/Destination/i, 'South Africa'],
  [/start date/i, daysAgo(-30).typed],
  [/How many days/i, '7'],
  [/date of birth/i, '14/07/1988'],
  [/passport/i, 'ZN123456'],
  [/mobile number/i, /My number/],
  [/on record with another phone/i, /new holder/i],
  [/NRC/, keyed(nrc)],
  [/full name/i, 'Kapya Tembo'],
  [/full name/i, 'Kapya Tembo'],
  [/e-?mail/i, 'kapya@example.com'],
  [/Correct\?/, /Yes/],
  [/^Is .* your /, /Yes/],
  [/Travellers so far/, /Continue/],
  [/^Choose|plan|cover/i, /./],
];

const PAY = /Pay with:/;
/** The call let go before the mobile-money PIN prompt (issue 38). */
const APPROVE = /^END Approve /;

/**
 * Phase one for `person` from `phone`: their NRC typed into motor new cover (with `plate`, and
 * their own plates), travel, a death claim, a loan claim, and cover by NRC with its SMS; the
 * motor purchase chooses to pay and its payer declines, the others stop short of paying. Returns what fell short of its goal.
 */
async function impersonate(
  phone: Phone,
  person: WalkPerson,
  plate: string,
  codePlate: string,
): Promise<string[]> {
  const short: string[] = [];
  const nrc = keyed(person.nrc);
  // Where a code can prove the NRC, guessing it: a wrong code each time, never the one sent
  // (first, while the phone holds no policyholder of its own and is asked for an NRC).
  await phone.fill(
    'motor code guess',
    [...MOTOR_TO_PLATE, codePlate],
    [
      [/on record with another phone/i, /Send a code/i],
      [/code/i, '000000'],
      ...motorAnswers(person.nrc),
    ],
    PAY,
  );
  // Chooses to pay from its own number, whose payer declines (issue 38: the holder is
  // registered at the insurer only at the pay step, so an attack that never gets that far
  // registers nothing): a second individual with the NRC, and a quote never paid.
  const bought = await phone.fill(
    'motor new cover',
    [...MOTOR_TO_PLATE, plate],
    [...motorAnswers(person.nrc), [/Pay with/, /My number/]],
  );
  if (!APPROVE.test(bought))
    short.push(`${person.name}: motor quote for ${plate} ended at ${bought}`);
  // The pay step runs after the call; until its outcome, a dial shows only where it stands.
  else await phone.toldBySms(/did not go through/);
  for (const own of person.plates) {
    await phone.fill(
      'motor new cover',
      [...MOTOR_TO_PLATE, own],
      [[/registered to another holder/, /SMS the holder/], ...motorAnswers(person.nrc)],
      PAY,
    );
    await phone.fill(
      'motor renew',
      [/Motor/, /Renew/, own],
      [[/insured under another holder/, /SMS the holder/]],
    );
  }
  const travelled = await phone.fill('travel', [/Travel/], travelAnswers(person.nrc), PAY);
  if (!PAY.test(travelled)) short.push(`${person.name}: travel ended at ${travelled}`);
  await phone.fill(
    'death of a member',
    [/Claims/, /Death/, groupLife.policyNumber, nrc],
    [
      [/Date of death/i, daysAgo(2).typed],
      [/happened|details|cause/i, 'Illness'],
      [/claim for/i, /Submit/],
    ],
  );
  await phone.fill(
    'loan claim',
    [/Claims/, /Loan/, creditLife.payroll.policyNumber, creditLife.payroll.activeLoan.reference],
    [
      [/What happened to the borrower/i, /Retrenchment/],
      [/NRC/, nrc],
      [/Date/i, daysAgo(2).typed],
      [/^What happened\?$/, 'Laid off'],
      [/claim for|claim on/i, /Submit/],
    ],
  );
  const byNrc = await phone.fill(
    'cover by NRC',
    [/My cover/, /NRC/, nrc],
    [[/NRC has|Details go only/, /Send details/]],
  );
  if (!/sent|SMS|phone on record/i.test(byNrc))
    short.push(`${person.name}: cover by NRC: ${byNrc}`);
  return short;
}

/** Phase two: every flow again from the impersonator's phone, after the sync; what fell short. */
async function walkAgain(phone: Phone, person: WalkPerson, plate: string): Promise<string[]> {
  const nrc = keyed(person.nrc);
  const texts: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
    [/claim number/i, person.claimNumbers],
    [/NRC/, [nrc]],
    [/plate/i, [...person.plates, plate]],
    [/Scheme policy number/i, [groupLife.policyNumber]],
    [/^Policy number/i, [creditLife.payroll.policyNumber]],
    [/loan reference/i, [creditLife.payroll.activeLoan.reference]],
    [/code/i, ['000000']],
    ...motorAnswers(person.nrc)
      .filter(([, step]) => typeof step === 'string')
      .map(([pattern, step]) => [pattern, [String(step)]] as const),
  ];
  // No payment, no new claim filed, no chat with staff, no language or data erasure.
  const skip =
    /^(Back|Back to list|End|Cancel|Start again|Continue)$|Pay|Card|Another number|Talk to|Language|Travel|Submit|Delete|Stop|Erase|Forget/i;
  const walked = await phone.crawl(
    'after the sync',
    [[/My cover/], [/Claims/], [/My data/], [/Motor/]],
    texts,
    skip,
  );
  return walked ? [] : [`${person.name}: the walk after the sync ran out of paths to try`];
}

/** Whether `item` stands in `text` as itself (an amount not the tail of a larger one). */
function carries(text: string, item: string): boolean {
  let at = text.indexOf(item);
  while (at >= 0) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + item.length] ?? ' ';
    if (!/[\d,]/.test(before) && !/\d/.test(after)) return true;
    at = text.indexOf(item, at + 1);
  }
  return false;
}

/** The catalogue's own examples ("(e.g. GL-DEMO-000001)") are the same words for everyone. */
const withoutExamples = (text: string) => text.replace(/\(e\.g\. [^)]*\)/g, '');

/** The leaks among `seen` and the sandbox's SMS, by the rule in the module comment. */
export function findLeaks(
  people: readonly WalkPerson[],
  seen: readonly Seen[],
  sms: readonly { to: string; message: string }[],
  typedBy: ReadonlyMap<string, readonly string[]>,
): Leak[] {
  const leaks: Leak[] = [];
  const excerpt = (text: string, item: string) => {
    const at = text.indexOf(item);
    return text.slice(Math.max(0, at - 60), at + item.length + 60).replaceAll('\n', ' / ');
  };
  const typedForms = (typed: readonly string[]) => typed.flatMap((t) => [t, slashed(t)]);
  const check = (text: string, typed: readonly string[], to: string | undefined, where: string) => {
    const clean = withoutExamples(text);
    const recipient = people.find((p) => to !== undefined && p.phone.slice(3) === to.slice(-9));
    const own = new Set([...typedForms(typed), ...(recipient?.secrets ?? [])]);
    for (const person of people) {
      if (person === recipient) continue;
      for (const item of person.secrets) {
        if (own.has(item) || !carries(clean, item)) continue;
        leaks.push({ person: person.name, item, where, excerpt: excerpt(clean, item) });
      }
    }
  };
  // The NRC and plates a phone typed anywhere are its own words on any later screen (a code
  // question may name the NRC); numbers and names it typed count only on that path.
  const identity = (phone: string) =>
    (typedBy.get(phone.slice(-9)) ?? []).filter((t) => /^\d{9}$|^[A-Z]{3} \d{4}$/.test(t));
  for (const s of seen) {
    check(s.screen, [...s.typed, ...identity(s.phone)], undefined, `screen ${s.phone} ${s.flow}`);
  }
  for (const message of sms) {
    const typed = typedBy.get(message.to.replace(/\D/g, '').slice(-9)) ?? [];
    check(message.message, typed, message.to, `sms to ${message.to}`);
  }
  // One leak per person, item and place is enough to read.
  const keyOf = (l: Leak) => `${l.person}|${l.item}|${l.where}`;
  return [...new Map(leaks.map((l) => [keyOf(l), l])).values()];
}

/** A leak as one line of a failure message. */
export const describeLeak = (l: Leak) => `${l.person} — ${l.item} — ${l.where}: …${l.excerpt}…`;

/** Impersonator phones: fresh numbers no demo person or test number holds. */
/** The impersonators' numbers: ending in 1, the sandbox's payer declines every prompt. */
const impersonatorOf = (index: number) => `2609557${String(1000 + index)}1`;

/**
 * The whole walk over `server` for `people` (the README's, or some of them): phase one for all
 * at once, one full holdings sync, phase two for all at once, then the people's own phones.
 */
export async function impersonatorWalk(
  server: TestServer,
  people: readonly WalkPerson[],
): Promise<WalkResult> {
  const outbox = sandboxOf(server).smsOutbox;
  const phones = people.map((_, i) => new Phone(server, impersonatorOf(i)));
  const plates = people.map((p, i) =>
    p.nrc === motor.holder.nrcNumber ? motor.newPlate : freshPlate(i),
  );
  const shortfalls = (
    await Promise.all(
      people.map((p, i) => impersonate(phones[i] as Phone, p, plates[i] ?? '', freshPlate(50 + i))),
    )
  ).flat();
  await server.server.holdingsSync.runNow({ full: true });
  const again = await Promise.all(
    people.map((p, i) => walkAgain(phones[i] as Phone, p, plates[i] ?? '')),
  );

  // The people's own phones: My cover still lists theirs, and each quoted plate can be bought.
  const ownCover = new Map<string, string>();
  const ownerBuys = new Map<string, string>();
  const ownClaims = new Map<string, string>();
  await Promise.all(
    people.map(async (person, i) => {
      const own = new Phone(server, person.phone);
      const cover = await own.fill('own My cover', [/My cover/]);
      // A long list goes on with "More".
      const more = optionOf(cover, /^More$/)
        ? await own.fill('own My cover', [/My cover/, /^More$/])
        : '';
      ownCover.set(person.name, `${cover}\n${more}`);
      // Track my claims lists their claims, a loan's and a member's alike.
      ownClaims.set(person.name, await own.fill('own claims', [/Claims/, /Track/]));
      const plate = plates[i] ?? '';
      const buy = await own.fill(
        'owner buys',
        [...MOTOR_TO_PLATE, plate],
        motorAnswers(person.nrc),
        /Pay with:|another holder/,
      );
      ownerBuys.set(plate, buy);
    }),
  );

  const typedBy = new Map<string, string[]>();
  for (const phone of phones) {
    typedBy.set(phone.msisdn.slice(-9), [...new Set(phone.seen.flatMap((s) => s.typed))]);
  }
  const seen = phones.flatMap((phone) => phone.seen);
  const sms = outbox.list();
  const leaks = findLeaks(people, seen, sms, typedBy);
  // WALK_DUMP=/tmp/walk writes every screen, SMS and leak seen, to read a failure at leisure.
  if (process.env.WALK_DUMP) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${process.env.WALK_DUMP}-${people.length}.json`,
      JSON.stringify({ seen, sms, leaks }, null, 1),
    );
  }
  return {
    leaks,
    shortfalls: [...shortfalls, ...again.flat()],
    ownCover,
    ownClaims,
    ownerBuys,
    read: { screens: seen.length, sms: sms.length },
    tooOften: seen.filter((s) => /asked too often/i.test(s.screen)).map((s) => s.screen),
  };
}

/** The demo people the walk must cover, by NRC: the README table may not drop one. */
export const DEMO_NRCS = [
  motor.holder,
  funeral.principal,
  groupLife.member,
  groupLife.deceased,
  creditLife.borrower,
].map((p) => p.nrcNumber);

/** The claim numbers of the demo book, for a sanity check of the README parse. */
export const DEMO_CLAIMS = [claims.intimated.claimNumber, claims.documented.claimNumber];
