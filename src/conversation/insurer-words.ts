/*
 * The one mapping from the insurer's own words to the caller's (issue 38): product names,
 * periods ("4 quarters"), scopes of cover, required documents, risk categories, claim statuses
 * and payment decline reasons arrive from the insurer in English. Each known word has a catalogue
 * key (`insurer.*`, in every language); a word the mapping does not know keeps the insurer's own
 * text and is logged once, so the mapping can be extended. Statuses of cover are mapped by
 * flows/status-words.ts, whose `status.*` keys render through the same catalogues.
 *
 * Templates need not change: the renderer passes the value of every argument named in
 * {@link INSURER_ARGUMENTS} through {@link insurerWords} (`{product}`, `{label}`, `{claimType}`,
 * `{documents}`, `{reason}`, `{insurerStatus}`, `{category}`), and a choice naming insurer data
 * is keyed `insurer.choice.<kind>` with the word as that argument.
 */
import { createLogger, type Logger } from '../log/index.js';

/** The kinds of insurer text a caller is shown. */
export const INSURER_WORD_KINDS = [
  'product',
  'period',
  'scope',
  'documents',
  'category',
  'reason',
  'claimStatus',
  'relationship',
  'refusal',
] as const;
/** The kind of an insurer text a caller is shown. */
export type InsurerWordKind = (typeof INSURER_WORD_KINDS)[number];

/**
 * Template arguments that carry insurer text, by name, and what each holds. One name one kind,
 * across every template: `{label}` is a pricing option's period, `{claimType}` a scope of cover.
 */
export const INSURER_ARGUMENTS: Readonly<Record<string, InsurerWordKind>> = {
  product: 'product',
  label: 'period',
  claimType: 'scope',
  documents: 'documents',
  reason: 'reason',
  insurerStatus: 'claimStatus',
  category: 'category',
  // What a holding covers: a household lists its members as `Name (Spouse)`.
  covers: 'relationship',
  // The insurer's own sentence refusing an answer (flows/support.ts `failure.said`).
  said: 'refusal',
};

/** A word as the mapping compares it: case, spacing and end punctuation ignored. */
function normalised(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .replace(/[.\s]+$/, '')
    .trim();
}

/** The catalogue key of each known word, by kind (keys in src/conversation/locales). */
const KNOWN: Readonly<
  Record<Exclude<InsurerWordKind, 'documents' | 'relationship'>, Record<string, string>>
> = {
  // The sandbox's refusals a caller can be shown (a field's message that reads as a sentence:
  // flows/support.ts). Those that carry a number or reference are in REFUSAL_PATTERNS.
  refusal: {
    'the vehicle is registered to another client': 'insurer.refusal.vehicleElsewhere',
    'already registered': 'insurer.refusal.alreadyRegistered',
    'already used': 'insurer.refusal.alreadyUsed',
    required: 'insurer.refusal.required',
    'expected a date': 'insurer.refusal.expectedDate',
    'expected a zambian mobile number such as 0971234567': 'insurer.refusal.expectedMobile',
    'must be after the start date': 'insurer.refusal.endAfterStart',
    'the new end date must be after the policy end date': 'insurer.refusal.endAfterPolicyEnd',
    'no premium has been received for this policy yet': 'insurer.refusal.noPremiumYet',
    'the loss date is in the future': 'insurer.refusal.lossInFuture',
    'the loan is not on risk yet': 'insurer.refusal.loanNotOnRisk',
    'the loan was off cover on the loss date': 'insurer.refusal.loanOffCover',
    'the loss date is before the loan and its policy went on cover':
      'insurer.refusal.lossBeforeCover',
    'the loss date falls in a lapsed period; that loss stays uncovered':
      'insurer.refusal.lossInLapse',
    'the member is in a pending batch and not covered': 'insurer.refusal.memberPending',
    'the member was off cover on the date of death': 'insurer.refusal.memberOffCover',
    'before the policy start date': 'insurer.refusal.beforePolicyStart',
  },
  // The sandbox's (and the spec's examples') products: motor covers, travel packages, life.
  product: {
    'motor third party': 'insurer.product.motorThirdParty',
    'motor third party, fire and theft': 'insurer.product.motorFireTheft',
    'motor comprehensive': 'insurer.product.motorComprehensive',
    'africa explorer': 'insurer.product.africaExplorer',
    'worldwide standard': 'insurer.product.worldwideStandard',
    'term life': 'insurer.product.termLife',
    'funeral plan': 'insurer.product.funeralPlan',
    'credit life cover': 'insurer.product.creditLife',
    householders: 'insurer.product.householders',
    'crop insurance': 'insurer.product.crop',
  },
  // Periods are counted: see PERIOD below; this table is for words without a count.
  period: {},
  // Credit-life and group-life scopes of cover (the insurer's claimType).
  scope: {
    death: 'insurer.scope.death',
    'permanent disability': 'insurer.scope.disability',
    retrenchment: 'insurer.scope.retrenchment',
  },
  // Motor risk categories.
  category: {
    private: 'insurer.category.private',
    commercial: 'insurer.category.commercial',
    'public service vehicle': 'insurer.category.psv',
  },
  // Why a payment failed, as the sandbox's rails say it.
  reason: {
    'the customer declined the payment prompt': 'insurer.reason.declined',
    'insufficient funds': 'insurer.reason.insufficientFunds',
    'the payment prompt expired without an answer': 'insurer.reason.expired',
    failed: 'insurer.reason.failed',
  },
  // Claim states past Documented (the insurer's own steps: check, approve, settle).
  claimStatus: {
    'under review': 'insurer.claimStatus.underReview',
    assessed: 'insurer.claimStatus.assessed',
    approved: 'insurer.claimStatus.approved',
    settled: 'insurer.claimStatus.settled',
    paid: 'insurer.claimStatus.paid',
    rejected: 'insurer.claimStatus.rejected',
    declined: 'insurer.claimStatus.declined',
    closed: 'insurer.claimStatus.closed',
  },
};

/** Documents a claim requires (`claimRequirements`). */
const DOCUMENTS: Readonly<Record<string, string>> = {
  'death certificate': 'insurer.document.deathCertificate',
  'loan statement': 'insurer.document.loanStatement',
  'medical report': 'insurer.document.medicalReport',
  'termination letter': 'insurer.document.terminationLetter',
  'policy wording': 'insurer.document.policyWording',
  'burial permit': 'insurer.document.burialPermit',
  'copy of nrc': 'insurer.document.nrcCopy',
};

/** How a household member relates to its principal (the insurer's `relationship`). */
const RELATIONSHIPS: Readonly<Record<string, string>> = {
  principal: 'insurer.relationship.principal',
  spouse: 'insurer.relationship.spouse',
  child: 'insurer.relationship.child',
  parent: 'insurer.relationship.parent',
  other: 'insurer.relationship.other',
};

/** A member's relationship in a household line: `Bwalya Mulenga (Spouse)`. */
const IN_PARENTHESES = /\((\p{L}[\p{L} -]{0,30})\)/gu;

/** A period as pricing options label it: `4 quarters`, `1 month`, `12 months`, `30 days`. */
const PERIOD = /^(\d{1,4}) (day|week|month|quarter|year)s?$/;

/** The key of a counted period (`{count, plural, …}`). */
const PERIOD_KEYS: Readonly<Record<string, string>> = {
  day: 'insurer.period.days',
  week: 'insurer.period.weeks',
  month: 'insurer.period.months',
  quarter: 'insurer.period.quarters',
  year: 'insurer.period.years',
};

/**
 * The sandbox's refusals that carry a number or a reference, each with the catalogue key and the
 * names of what it captures (rendered as that key's arguments).
 */
const REFUSAL_PATTERNS: readonly { pattern: RegExp; key: string; names: readonly string[] }[] = [
  {
    pattern:
      /^claims must be intimated within (\d{1,4}) days of the loss; this loss was (\d{1,6}) days ago$/i,
    key: 'insurer.refusal.lateNotice',
    names: ['allowed', 'days'],
  },
  {
    pattern: /^this (?:quotation|policy|schedule) is already paid \(reference ([\w/-]{1,40})\)$/i,
    key: 'insurer.refusal.alreadyPaid',
    names: ['reference'],
  },
];

/**
 * A message to render for a known insurer word: its key and, for a period, its count (or for a
 * refusal, the numbers and reference it names).
 */
export interface InsurerWord {
  readonly key: string;
  readonly params?: Readonly<Record<string, number | string>>;
}

/** The catalogue message of one insurer word of `kind`, or undefined when the word is unknown. */
export function insurerWordKey(kind: InsurerWordKind, text: string): InsurerWord | undefined {
  const word = normalised(text);
  if (kind === 'documents' || kind === 'relationship') {
    const key = (kind === 'documents' ? DOCUMENTS : RELATIONSHIPS)[word];
    return key ? { key } : undefined;
  }
  if (kind === 'period') {
    const match = PERIOD.exec(word);
    const key = match ? PERIOD_KEYS[match[2] ?? ''] : undefined;
    return key ? { key, params: { count: Number(match?.[1]) } } : undefined;
  }
  if (kind === 'refusal') {
    const fixed = KNOWN.refusal[word];
    if (fixed) return { key: fixed };
    // Matched on the text as written (a reference keeps its case), spacing and end dot aside.
    const written = text
      .trim()
      .replace(/\s+/g, ' ')
      .replace(/[.\s]+$/, '');
    for (const { pattern, key, names } of REFUSAL_PATTERNS) {
      const match = pattern.exec(written);
      if (!match) continue;
      const params = Object.fromEntries(
        names.map((name, index) => {
          const value = match[index + 1] ?? '';
          return [name, /^\d+$/.test(value) ? Number(value) : value];
        }),
      );
      return { key, params };
    }
    return undefined;
  }
  const key = KNOWN[kind][word];
  return key ? { key } : undefined;
}

/**
 * The caller's words for insurer text of `kind`, through `translate` (a catalogue lookup in the
 * caller's language). A list of documents ("Death certificate, Loan statement") is mapped item by
 * item. An unknown word keeps the insurer's text and is reported once. Empty and placeholder
 * values (`-`) are shown as they are.
 */
export function insurerWords(
  kind: InsurerWordKind,
  text: string,
  translate: (word: InsurerWord) => string,
): string {
  if (!/\p{L}/u.test(text)) return text;
  if (kind === 'relationship') {
    // Only the words in parentheses are the insurer's; the rest is names and numbers, never
    // looked up or logged (personal data).
    return text.replace(IN_PARENTHESES, (whole, word: string) => {
      const known = insurerWordKey('relationship', word);
      return known ? `(${translate(known)})` : whole;
    });
  }
  if (kind !== 'documents') {
    const known = insurerWordKey(kind, text);
    if (known) return translate(known);
    reportUnknown(kind, text);
    return text;
  }
  return text
    .split(/\s*[,;]\s*/)
    .map((item) => {
      const known = insurerWordKey('documents', item);
      if (known) return translate(known);
      if (item) reportUnknown('documents', item);
      return item;
    })
    .join(', ');
}

let logger: Logger | undefined;
const reported = new Set<string>();
/** The most distinct unknown words remembered (a noisy insurer is bounded). */
const MAX_REPORTED = 500;

/** Routes "unknown insurer word" lines to the process logger instead of a default one. */
export function setInsurerWordsLogger(next: Logger): void {
  logger = next;
}

/**
 * The word as logged: digits masked and bounded, since a free-text reason could carry a number
 * (a phone, an account); insurer vocabulary itself is not personal data.
 */
function logged(text: string): string {
  return text.replace(/\d/g, '#').slice(0, 60);
}

function reportUnknown(kind: InsurerWordKind, text: string): void {
  const id = `${kind}:${normalised(text)}`;
  if (reported.has(id) || reported.size >= MAX_REPORTED) return;
  reported.add(id);
  logger ??= createLogger();
  logger.warn(
    { event: 'insurer.unknownWord', kind, word: logged(text) },
    'insurer word shown untranslated',
  );
}
