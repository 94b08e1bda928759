import { formatDate, nestedMessageOf, type Prompt } from '../../../conversation/index.js';
import type { RenderPrompt } from '../../shared/index.js';
import type { TemplateMessage } from './messages.js';

/*
 * Meta's own artefacts: the message templates registered with Meta (WhatsApp Manager) that reach
 * a customer outside WhatsApp's 24-hour window, one per event the server pushes, described once
 * here: their bodies, their named parameters, the wire payload that sends one, and what Meta's
 * template statuses and template error codes mean. The notifier decides when to send them; the
 * lint test checks their wording against Meta's rules, and docs/channels/whatsapp.md shows the
 * table `templatesMarkdown()` writes (a test keeps the page and this list word for word alike).
 *
 * Languages: Meta offers no Bemba or Nyanja template language (its list has Swahili and Zulu,
 * not `bem` or `ny`), so each template is approved in English; the conversation that follows the
 * customer's reply is in their own language.
 */

/** A prompt's parameters, as flows and services put them (strings and numbers). */
type Params = NonNullable<Prompt['params']>;

/**
 * How one named template parameter is filled from a prompt's parameters: `words` shows a
 * parameter that carries a message (what is bought, a status) as its sentence, in the template's
 * language; dates are written as the customer reads them.
 */
type ParameterSource = (params: Params, context: ParameterContext) => string;

interface ParameterContext {
  readonly locale: string;
  readonly words: (value: string) => string;
}

/** One approved template: what Meta is asked to approve, and which pushed prompts it carries. */
export interface TemplateDefinition {
  /** The name registered in WhatsApp Manager: lower case, digits and underscores. */
  readonly name: string;
  /** Meta's category: every one of these confirms or updates something the customer started. */
  readonly category: 'UTILITY';
  /** The business-initiated event it is for, in a few words (the docs' "for" column). */
  readonly event: string;
  /** The prompt keys the server pushes for that event: each is carried by this template only. */
  readonly keys: readonly string[];
  /** The body per language Meta offers for it; named parameters as `{{policy_number}}`. */
  readonly body: { readonly en: string };
  /** Each named parameter, in the order the body shows them, and where its value comes from. */
  readonly parameters: Readonly<Record<string, ParameterSource>>;
  /**
   * True when the whole message (its buttons, its certificate, its link) is kept and sent as
   * soon as the customer writes back: the template promises it ("reply to receive…").
   */
  readonly followUp: boolean;
}

const text =
  (name: string, fallback = '-'): ParameterSource =>
  (params, context) => {
    const value = params[name];
    return value === undefined || String(value).trim() === ''
      ? fallback
      : context.words(String(value));
  };
const date =
  (name: string): ParameterSource =>
  (params, context) =>
    formatDate(text(name)(params, context), context.locale);
const money: ParameterSource = (params, context) =>
  `${text('currency', '')(params, context)} ${text('amount')(params, context)}`.trim();

/** Every template the notifier sends outside the window, one per business-initiated event. */
export const WHATSAPP_TEMPLATES: readonly TemplateDefinition[] = [
  {
    name: 'insurechat_policy_issued',
    category: 'UTILITY',
    event: 'a purchase paid: the policy is issued (motor, travel)',
    keys: ['motor.done', 'travel.done'],
    body: {
      en: 'Thank you for your payment of {{amount}}. Your {{cover}} runs from {{start_date}} to {{end_date}} and your policy number is {{policy_number}}. Reply to this message to receive your insurance certificate here.',
    },
    parameters: {
      amount: money,
      cover: text('what', 'cover'),
      start_date: date('startDate'),
      end_date: date('endDate'),
      policy_number: text('policyNumber'),
    },
    followUp: true,
  },
  {
    name: 'insurechat_policy_renewed',
    category: 'UTILITY',
    event: 'a renewal paid: the policy runs for another period',
    keys: ['motor.renewed'],
    body: {
      en: 'Thank you for your payment of {{amount}}. Your policy {{policy_number}} is renewed from {{start_date}} to {{end_date}}. Reply to this message to receive your new insurance certificate here.',
    },
    parameters: {
      amount: money,
      policy_number: text('policyNumber'),
      start_date: date('startDate'),
      end_date: date('endDate'),
    },
    followUp: true,
  },
  {
    name: 'insurechat_payment_received',
    category: 'UTILITY',
    event: 'a payment received after the conversation ended (the flow could not show it)',
    keys: ['payment.outcome.paid', 'payment.outcome.paidWithoutPolicy'],
    body: {
      en: 'We have received your insurance payment with reference {{reference}}. Reply to this message to see your policy and its certificate.',
    },
    parameters: { reference: text('reference') },
    followUp: true,
  },
  {
    name: 'insurechat_payment_failed',
    category: 'UTILITY',
    event: 'a payment declined or failed',
    keys: ['pay.failed', 'payment.outcome.failed'],
    body: {
      en: 'Your insurance payment of {{amount}} did not go through, and nothing was charged. Reply to this message if you want to pay again.',
    },
    // A notice of the service's own has a reference, not an amount: the reference stands in.
    parameters: {
      amount: (params, context) =>
        params.amount === undefined ? text('reference')(params, context) : money(params, context),
    },
    followUp: true,
  },
  {
    name: 'insurechat_payment_pending',
    category: 'UTILITY',
    event: 'a payment still waiting for the payer when the conversation ended',
    keys: ['payment.outcome.pending'],
    body: {
      en: 'Your insurance payment with reference {{reference}} is still waiting for approval on your phone. Once you approve it, reply to this message to check it.',
    },
    parameters: { reference: text('reference') },
    followUp: true,
  },
  {
    name: 'insurechat_renewal_reminder',
    category: 'UTILITY',
    event: 'a renewal reminder, 14 and 3 days before the cover ends',
    keys: ['reminder.motor'],
    body: {
      en: 'Your motor cover {{policy_number}} for {{cover}} ends on {{end_date}}. Reply to this message to renew it and stay insured, or to stop these reminders.',
    },
    parameters: {
      policy_number: text('policyNumber'),
      cover: text('what', 'your vehicle'),
      end_date: date('endDate'),
    },
    followUp: true,
  },
  {
    name: 'insurechat_claim_received',
    category: 'UTILITY',
    event: 'a claim reported: its number and the documents needed',
    keys: ['claim.notice.link', 'claim.notice.chat'],
    body: {
      en: 'Your insurance claim {{claim_number}} is received and the insurer is checking it. Documents needed: {{documents}}. Reply to this message to send them here.',
    },
    parameters: { claim_number: text('number'), documents: text('documents') },
    followUp: true,
  },
  {
    name: 'insurechat_claim_update',
    category: 'UTILITY',
    event: "a claim's state changed at the insurer",
    keys: ['claim.progress', 'claim.progress.documented'],
    body: {
      en: 'There is an update on your insurance claim {{claim_number}}: the insurer now shows it as {{claim_status}}. Reply to this message to follow your claims.',
    },
    parameters: {
      claim_number: text('number'),
      // Documented has its own wording inside the window; the template names the state.
      claim_status: text('insurerStatus', 'Documented'),
    },
    followUp: false,
  },
  {
    name: 'insurechat_staff_reply',
    category: 'UTILITY',
    event: "a person's reply during a handoff",
    keys: ['handoff.staffReply'],
    body: {
      en: 'A member of the insurance team has replied to your request: "{{reply}}". Reply to this message to answer them.',
    },
    parameters: { reply: text('text') },
    // The reply is the whole message; the customer's answer must reach the person, not replay it.
    followUp: false,
  },
  {
    name: 'insurechat_staff_file',
    category: 'UTILITY',
    event: "a person's reply with a file during a handoff",
    keys: ['handoff.staffFile'],
    body: {
      en: 'A member of the insurance team has sent you a document about your request. Reply to this message to receive it here.',
    },
    parameters: {},
    // A document cannot ride in the template: it, and any words with it, follow the reply.
    followUp: true,
  },
  {
    name: 'insurechat_handoff_closed',
    category: 'UTILITY',
    event: 'a handoff ended by staff (Resolve)',
    keys: ['handoff.resolved', 'handoff.resolvedFresh'],
    body: {
      en: 'The member of the insurance team who was helping you has closed your request. Reply to this message whenever you want to carry on where you left off.',
    },
    parameters: {},
    followUp: true,
  },
];

const BY_KEY: ReadonlyMap<string, TemplateDefinition> = new Map(
  WHATSAPP_TEMPLATES.flatMap((template) => template.keys.map((key) => [key, template] as const)),
);

/** The template that carries a pushed prompt outside the window; undefined when none does. */
export function templateOf(key: string): TemplateDefinition | undefined {
  return BY_KEY.get(key);
}

/** Placeholders in a template body, in order: `{{policy_number}}` → `policy_number`. */
export function placeholdersOf(body: string): string[] {
  return [...body.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((match) => match[1] ?? '');
}

/**
 * One parameter's value as WhatsApp takes it: no line breaks, tabs or runs of spaces (Meta
 * refuses them), at most `maxChars` characters.
 */
function parameterText(value: string, maxChars = 600): string {
  const flat = value
    .replace(/\s*\n+\s*/g, ' · ')
    .replace(/[\t ]{2,}/g, ' ')
    .trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}

/** The language every template is approved in (Meta offers no Bemba or Nyanja templates). */
const TEMPLATE_LANGUAGE = 'en';

/**
 * The template message carrying `prompt`, as the Graph API takes it: its named body parameters
 * in the body's order, facts as the customer reads them, a message carried in a parameter
 * (`what.motor|…`) in the template's language, English (the customer's language after).
 */
export function templateMessage(
  template: TemplateDefinition,
  prompt: Prompt,
  locale: string,
  render: RenderPrompt,
): TemplateMessage {
  const words = (value: string) => {
    const nested = nestedMessageOf(value);
    return nested
      ? render({ ...nested, input: 'none', final: true }, TEMPLATE_LANGUAGE).text
      : value;
  };
  const parameters = Object.entries(template.parameters).map(([name, source]) => ({
    type: 'text' as const,
    parameter_name: name,
    text: parameterText(source(prompt.params ?? {}, { locale, words })) || '-',
  }));
  return {
    type: 'template',
    template: {
      name: template.name,
      language: { code: TEMPLATE_LANGUAGE },
      components: parameters.length === 0 ? [] : [{ type: 'body', parameters }],
    },
  };
}

/**
 * Template statuses Meta reports under which a send would fail. Others (APPROVED, FLAGGED, which
 * is still sent, IN_APPEAL…) keep the template in use.
 */
const UNUSABLE: ReadonlySet<string> = new Set([
  'PAUSED',
  'REJECTED',
  'DISABLED',
  'PENDING_DELETION',
  'DELETED',
  // Not Meta's word: a send failed with "template does not exist" (132001).
  'MISSING',
]);

/** True when a template in `status` (as Meta reports it, upper case) cannot be sent. */
export const isUnusable = (status: string): boolean => UNUSABLE.has(status);

/**
 * Meta's error codes on a failed template send that say the template itself cannot be used, and
 * the status that stands for each until Meta reports the template approved again.
 */
const TEMPLATE_ERRORS: ReadonlyMap<number, string> = new Map([
  [132001, 'MISSING'],
  [132015, 'PAUSED'],
  [132016, 'DISABLED'],
]);

/** The status a template error code stands for (paused, disabled, missing); else undefined. */
export const statusOfTemplateError = (code: number): string | undefined =>
  TEMPLATE_ERRORS.get(code);

/** Meta's template errors (132xxx: the template's status, parameters, format). */
export const isTemplateError = (code: number): boolean => code >= 132_000 && code < 133_000;

/** The docs' table of templates: name, category, event and body per language. */
export function templatesMarkdown(): string {
  const rows = WHATSAPP_TEMPLATES.map(
    (template) =>
      `| \`${template.name}\` | ${template.category} | ${template.event} | en | ${template.body.en} |`,
  );
  return [
    '| name | category | for | language | body |',
    '| ---- | -------- | --- | -------- | ---- |',
    ...rows,
  ].join('\n');
}
