import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUssdScreens } from '../../../src/channels/ussd/index.js';
import {
  INSURER_ARGUMENTS,
  type InsurerWordKind,
  insurerWordKey,
  isStaffKey,
  nestedMessage,
  t,
} from '../../../src/conversation/index.js';
import { en } from '../../../src/conversation/locales/en.js';
import { FAILURE_REASON } from '../../../src/sandbox/index.js';
import { type Harness, startHarness } from '../../sandbox/sandbox-harness.js';

/*
 * Issue 38's acceptance: every message key a caller may see, rendered in Bemba and Nyanja with
 * the insurer sandbox's own texts as parameters (product names, periods, scopes of cover,
 * required documents, risk categories, decline reasons, claim statuses), holds no word of the
 * bot's own English sentences, and no screen cuts a policy number or an amount with "...".
 */

const TRANSLATIONS = ['bem', 'ny'] as const;
/** Every key a policyholder or funeral member may see: staff keys stay English by design. */
const CUSTOMER_KEYS = Object.keys(en).filter((key) => !isStaffKey(key));

/**
 * Keys that read the same in every language on purpose: the language screen names each language
 * in itself, and the words a WhatsApp customer may type include the English ones in every
 * language (the catalogue comment says so).
 */
const SAME_IN_EVERY_LANGUAGE = new Set([
  'language.pick',
  'whatsapp.word.menu',
  'whatsapp.word.cancel',
  'whatsapp.word.done',
]);

/**
 * Words the translations use on purpose although English has them too: loanwords Zambians use
 * as they are (a translator's choice, see the catalogues' header), names of products and
 * services, units and formats. Each is allowed in every key.
 */
const ALLOWED = new Set([
  // insurance loanwords kept as the trade says them (policy, claim, premium, levy: glossed once)
  'policy',
  'claim',
  'premium',
  'levy',
  // abbreviations and units
  'zmw',
  'nrc',
  'nrcs',
  'pin',
  'sms',
  'pdf',
  'mb',
  'jpeg',
  'png',
  'webp',
  'heic',
  // the date format every catalogue shows (DD/MM/YYYY), the same keys in every language
  'dd',
  'mm',
  'yyyy',
  // phone and money words in everyday Zambian use
  'mobile',
  'money',
  'link',
  'code',
  'chassis',
  'model',
  // names: services, apps, makes, the country
  'insurechat',
  'telegram',
  'whatsapp',
  'meta',
  'slack',
  'toyota',
  'corolla',
  // the example person a question shows (a first and a last name, as typed)
  'jane',
  'banda',
  'zambia',
  'africa',
  // SMS keywords the gateway reads in English (Reply STOP / START)
  'stop',
  'start',
]);

/**
 * The words of the bot's own English sentences: every word of the literal text of the English
 * catalogue's customer templates. One-letter words are left out: `a` is also a Nyanja particle.
 */
function englishWords(): Set<string> {
  const words = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal) {
        for (const word of wordsOf(element.value)) words.add(word);
      } else if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  for (const key of CUSTOMER_KEYS) {
    if (SAME_IN_EVERY_LANGUAGE.has(key)) continue;
    walk(parse((en as Record<string, string>)[key] ?? '', { ignoreTag: true }));
  }
  return words;
}

/** Words spelled as an English word that are the translation's own: Bemba `no` is "and, with". */
const HOMOGRAPHS: Readonly<Record<string, ReadonlySet<string>>> = {
  bem: new Set(['no']),
  ny: new Set(),
};

/**
 * Names no translation changes: the law and the office a privacy notice must name as enacted,
 * written the same in every catalogue.
 */
const PROPER_NAMES = ['Data Protection Act No. 3 of 2021', 'Data Protection Commissioner'];

/**
 * Examples of what to type that are data, not words: a plate (`AJQ 1909`), a policy or claim
 * number (`CL-DEMO-000001`), an email address (`name@mail.com`).
 */
const EXAMPLES = /\S+@\S+|\b[A-Z]{2,}(?:-[A-Z]+)*[- ]\d+\b/g;

/** The words of a text, lower-case, without commands (`/start`) or one-letter words. */
function wordsOf(text: string): string[] {
  return text
    .replace(/\/\w+/g, ' ')
    .toLowerCase()
    .split(/[^a-z']+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word.length > 1);
}

/** The numbers a caller may need whole: three digits or more (a policy number, an amount). */
function keyNumbers(text: string): string[] {
  return (text.match(/\d(?:[\d,./-]*\d)?/g) ?? []).filter(
    (number) => number.replace(/\D/g, '').length >= 3,
  );
}

/** Data that is no one's language: the caller's answers, numbers, links. Stripped before words are read. */
const DATA: Record<string, string | number> = {
  address: '260971234567',
  allowed: 90,
  amount: '13,125.00',
  basic: '660.00',
  code: '482913',
  contact: 'dpo@sgi.example',
  controller: 'SGI Zambia Ltd',
  count: 2,
  covers: 'BCD 4321',
  currency: 'ZMW',
  days: 100,
  destination: 'South Africa',
  files: 3,
  gross: '693.00',
  handoffs: 0,
  item: nestedMessage('what.motor', { product: 'Motor Third Party', plate: 'BCD 4321' }),
  left: 2,
  levy: '33.00',
  limit: '250,000.00',
  max: 60,
  mb: 10,
  name: 'Mwila Banda',
  nrcs: '123456/10/1',
  number: 'CLC-000001',
  payable: '250,000.00',
  phone: '...567',
  plate: 'BCD 4321',
  policyNumber: 'MTR-2026-000123',
  policyNumbers: 'MTR-2026-000123, CL-DEMO-000001',
  reference: 'IC0123ABCD',
  said: '',
  serviceCode: '*384*4628#',
  since: '10:42',
  subject: 'LN-000042',
  text: 'Mwila Banda',
  url: 'https://ic.example/p/Xy12',
  vehicle: 'Toyota Corolla 2015',
  // plurals and selects: a count and its choice
  travellers: 2,
  card: 1,
  nrcCount: 1,
  numbered: 1,
  paymentsKept: 1,
  policies: 2,
  consented: 'yes',
  // dates: ISO, as flows pass them
  agreedDate: '2026-11-18',
  endDate: '2027-11-30',
  eventDate: '2026-10-02',
  startDate: '2026-12-01',
  until: '2027-01-05',
  min: '2026-12-01',
};

/** The insurer's texts, as the sandbox says them, by kind (read from its API in beforeAll). */
const insurerTexts: Record<InsurerWordKind, string[]> = {
  product: [],
  period: [],
  scope: [],
  documents: [],
  category: [],
  reason: Object.values(FAILURE_REASON),
  // Claim words past Documented, as insurers name their steps (the spec leaves them to it).
  claimStatus: ['Approved', 'Settled', 'Rejected'],
  // Household members as My cover lists them: `Name (Relationship)`.
  relationship: [],
  // The sandbox's refusals a flow can show as `{said}` (src/sandbox: its field messages that read
  // as a sentence, with the end dot flows/support.ts adds).
  refusal: [
    'The vehicle is registered to another client.',
    'Already registered.',
    'Expected a Zambian mobile number such as 0971234567.',
    'The loss date is in the future.',
    'The loan is not on risk yet.',
    'The loan was off cover on the loss date.',
    'The loss date is before the loan and its policy went on cover.',
    'The loss date falls in a lapsed period; that loss stays uncovered.',
    'The member is in a Pending batch and not covered.',
    'The member was off cover on the date of death.',
    'Before the policy start date.',
    'The new end date must be after the policy end date.',
    'Claims must be intimated within 90 days of the loss; this loss was 120 days ago.',
    'This quotation is already paid (reference IC0123ABCD).',
  ],
};

/** The insurer's own words in a text of `kind`: a household's relationships are in parentheses. */
function insurerItems(kind: InsurerWordKind, text: string): string[] {
  if (kind === 'relationship') return [...text.matchAll(/\(([^)]+)\)/g)].map((m) => m[1] ?? '');
  return kind === 'documents' ? text.split(/\s*,\s*/) : [text];
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  const { client } = harness;
  const motor = (await client.call('getMotorProducts', { query: {} })).data;
  const travel = (await client.call('getTravelProducts', { query: {} })).data;
  const categories = await client.call('getMotorRiskCategories', {});
  const creditLife = await client.call('getCreditLifeProducts', {});
  insurerTexts.product.push(
    ...[...motor, ...travel, ...creditLife].flatMap((p) => (p.name ? [p.name] : [])),
  );
  insurerTexts.category.push(...categories.map((c) => c.name));
  for (const product of motor) {
    const pricing = await client.call('getMotorPricing', {
      body: {
        productId: product.id,
        riskCategoryId: categories[0]?.id ?? '',
        startDate: '2026-12-01',
        endDate: '2027-11-30',
        sumInsured: 150_000,
      },
    });
    insurerTexts.period.push(...pricing.pricingOptions.map((o) => o.label));
  }
  const thirdParty = await client.call('getMotorPricing', {
    body: { productId: motor[0]?.id ?? '', riskCategoryId: categories[0]?.id ?? '' },
  });
  insurerTexts.period.push(...thirdParty.pricingOptions.map((o) => o.label));
  for (const product of creditLife) {
    for (const scope of product.scopesOfCover ?? []) {
      if (scope.name) insurerTexts.scope.push(scope.name);
      const required = Array.isArray(scope.claimRequirements) ? scope.claimRequirements : [];
      insurerTexts.documents.push(required.map(String).join(', '));
    }
  }
  for (const household of harness.sandbox.state.households.values()) {
    const members = (household as { members?: { fullName?: string; relationship?: string }[] })
      .members;
    insurerTexts.relationship.push(
      (members ?? []).map((m) => `${m.fullName} (${m.relationship})`).join(', '),
    );
  }
  for (const kind of Object.keys(insurerTexts) as InsurerWordKind[]) {
    insurerTexts[kind] = [...new Set(insurerTexts[kind])];
  }
}, 30_000);

afterAll(async () => {
  await harness?.close();
});

/** The plain arguments of a template (`{what}`, `{product}`), by name. */
function argumentsOf(template: string): Set<string> {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      if (element.type === TYPE.tag) continue;
      names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  walk(parse(template, { ignoreTag: true }));
  return names;
}

/** The keys whose message another template shows through a parameter (see nested-message.ts). */
const keysFrom = (prefix: string) => Object.keys(en).filter((key) => key.startsWith(prefix));

/**
 * Every parameter set a key is rendered with: one with the first value of everything, then one
 * per other value of each argument that varies (each insurer text of its kind, each status, each
 * thing bought), so every insurer text and every nested message is seen in every template that
 * can show it.
 */
function paramSets(key: string): Record<string, string | number>[] {
  const args = argumentsOf((en as Record<string, string>)[key] ?? '');
  const products = insurerTexts.product;
  const varying: Record<string, (string | number)[]> = {
    status: keysFrom('status.'),
    line: keysFrom('what.line.').map((line) => nestedMessage(line)),
    what: [
      ...products.map((product) => nestedMessage('what.motor', { product, plate: 'BCD 4321' })),
      ...products.map((product) =>
        nestedMessage('what.travel', { product, destination: 'South Africa' }),
      ),
      nestedMessage('what.motorCover', { plate: 'BCD 4321' }),
      nestedMessage('what.travelCover', { destination: 'South Africa' }),
      nestedMessage('what.renewal', { policyNumber: 'MTR-2026-000123' }),
      nestedMessage('what.renewalOfPlate', { policyNumber: 'MTR-2026-000123', plate: 'BCD 4321' }),
    ],
  };
  for (const [name, kind] of Object.entries(INSURER_ARGUMENTS)) varying[name] = insurerTexts[kind];
  const base: Record<string, string | number> = { ...DATA };
  for (const [name, values] of Object.entries(varying)) base[name] = values[0] ?? '';
  const sets = [base];
  for (const name of args) {
    for (const value of varying[name]?.slice(1) ?? []) sets.push({ ...base, [name]: value });
  }
  return sets;
}

/** A rendered text with the data it was given taken out, so only the bot's words are read. */
function withoutData(text: string): string {
  let rest = text.replace(EXAMPLES, ' ');
  for (const name of PROPER_NAMES) rest = rest.split(name).join(' ');
  const data = Object.values(DATA)
    .filter((value): value is string => typeof value === 'string' && value.length > 1)
    .sort((a, b) => b.length - a.length);
  for (const value of data) rest = rest.split(value).join(' ');
  return rest;
}

/** The screens with their paging footers taken out, as one line. */
function shownOn(screens: readonly string[]): string {
  return screens
    .flatMap((screen) => screen.split('\n'))
    .filter((line) => !/^(98|0) /.test(line))
    .join(' ');
}

describe.each(TRANSLATIONS)('every message a caller may see, in %s', (locale) => {
  it('holds no word of the bot’s own English sentences, with the insurer’s texts mapped', () => {
    const english = englishWords();
    // The insurer's texts are English too: a mapped one must not show through.
    for (const [kind, texts] of Object.entries(insurerTexts) as [InsurerWordKind, string[]][]) {
      for (const text of texts) {
        for (const item of insurerItems(kind, text))
          for (const word of wordsOf(item)) english.add(word);
      }
    }
    const leaks: string[] = [];
    let renders = 0;
    for (const key of CUSTOMER_KEYS) {
      if (SAME_IN_EVERY_LANGUAGE.has(key)) continue;
      for (const params of paramSets(key)) {
        renders += 1;
        const text = t(key, params, locale);
        expect({ key, text }).not.toEqual({ key, text: expect.stringContaining('{') });
        const words = wordsOf(withoutData(text)).filter(
          (word) => english.has(word) && !ALLOWED.has(word) && !HOMOGRAPHS[locale]?.has(word),
        );
        if (words.length > 0 && !leaks.some((leak) => leak.startsWith(`${key}:`))) {
          leaks.push(`${key}: ${[...new Set(words)].join(' ')} | ${text}`);
        }
      }
    }
    console.info(
      `${locale}: ${CUSTOMER_KEYS.length - SAME_IN_EVERY_LANGUAGE.size} keys rendered ${renders} times, ${leaks.length} with English words`,
    );
    expect(leaks).toEqual([]);
  });

  it('never cuts a policy number or an amount with "..." on a USSD screen', () => {
    const choices = ['flow.choice.back', 'cover.choice.sms', 'cover.choice.claim'].map((id) => ({
      id,
      label: t(id, undefined, locale),
    }));
    const cut: { key: string; missing: string[] }[] = [];
    for (const key of CUSTOMER_KEYS) {
      for (const params of paramSets(key)) {
        const text = t(key, params, locale);
        for (const withChoices of [[], choices]) {
          const shown = shownOn(toUssdScreens({ text, choices: withChoices }, locale));
          const missing = keyNumbers(text).filter((number) => !shown.includes(number));
          if (missing.length > 0) cut.push({ key, missing });
        }
      }
    }
    expect(cut).toEqual([]);
  });
});

describe('the main menu', () => {
  it.each(['en', ...TRANSLATIONS])(
    'fits one USSD page in %s, with a renewal offered or the reminders switch',
    (locale) => {
      const entries = ['motor', 'travel', 'policies', 'claim', 'person'];
      const tail = ['myData', 'language'];
      // After a purchase: the renewal entry (a long policy number) or Stop reminders, not both.
      for (const first of [['renew'], []]) {
        const stop = first.length === 0 ? ['remindersOff'] : [];
        const choices = [...first, ...entries, ...stop, ...tail].map((id) => ({
          id,
          label: t(`menu.choice.${id}`, { policyNumber: 'MTR-2026-000123' }, locale),
        }));
        const screens = toUssdScreens(
          { text: t('menu.policyholder', {}, locale), choices },
          locale,
        );
        expect(screens, screens.join('\n---\n')).toHaveLength(1);
      }
    },
  );
});

describe('the insurer sandbox’s texts', () => {
  it('are each known to the one mapping, so none is shown in English to a Bemba or Nyanja caller', () => {
    const unknown: string[] = [];
    for (const [kind, texts] of Object.entries(insurerTexts) as [InsurerWordKind, string[]][]) {
      for (const text of texts) {
        for (const item of insurerItems(kind, text)) {
          if (!insurerWordKey(kind, item)) unknown.push(`${kind}: ${item}`);
        }
      }
    }
    expect(unknown).toEqual([]);
    expect(insurerTexts.product.length).toBeGreaterThan(4);
    expect(insurerTexts.period).toContain('4 quarters');
    expect(insurerTexts.documents.length).toBeGreaterThan(1);
    expect(insurerTexts.relationship.join()).toContain('(Spouse)');
  });
});
