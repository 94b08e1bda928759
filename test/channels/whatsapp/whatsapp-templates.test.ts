import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  type GraphClient,
  placeholdersOf,
  type TemplateMessage,
  templateOf,
  templatesMarkdown,
  WHATSAPP_TEMPLATES,
} from '../../../src/channels/whatsapp/index.js';
import { claimProgressPrompt } from '../../../src/claim-documents/index.js';
import { LOCALES, type Prompt, renderPrompt } from '../../../src/conversation/index.js';
import { createLogger } from '../../../src/log/index.js';
import { PAYMENT_PROMPTS } from '../../../src/payments/index.js';
import { createWhatsAppNotifier, createWhatsAppStore } from '../../../src/push/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';

/*
 * Issue 40: the templates that reach a customer outside WhatsApp's 24-hour window, linted as
 * Meta's review reads them, and checked against what the notifier really sends.
 */

/**
 * Every prompt the server pushes through a Notifier that may reach a WhatsApp customer: payment
 * outcomes (the flows' closing screens and the service's own notices), renewal reminders, claim
 * notices and progress, a person's replies (with words, or a file alone) and Resolve. The step shown after Resolve is any
 * screen and has no template (it waits for the customer's reply).
 */
const PUSHED_KEYS = [
  'motor.done',
  'motor.renewed',
  'travel.done',
  'pay.failed',
  ...Object.values(PAYMENT_PROMPTS),
  'reminder.motor',
  'claim.notice.link',
  'claim.notice.chat',
  claimProgressPrompt('CLM-1', 'Approved').key,
  claimProgressPrompt('CLM-1', 'Documented').key,
  'handoff.staffReply',
  'handoff.staffFile',
  'handoff.resolved',
  'handoff.resolvedFresh',
];

/** The `{name}` arguments of an English catalogue message, with a sample value each. */
function sampleParams(key: string): Record<string, string> {
  const message = LOCALES.en?.[key as keyof (typeof LOCALES)['en']] ?? '';
  const names = [...message.matchAll(/\{(\w+)/g)].map((match) => match[1] ?? '');
  const sample = (name: string) =>
    /date/i.test(name) ? '2026-12-01' : name === 'text' ? 'Line one\n\tline two' : `S-${name}`;
  return Object.fromEntries(names.map((name) => [name, sample(name)]));
}

/** The template the notifier sends for `key` to a customer whose window is shut. */
async function sentFor(key: string): Promise<TemplateMessage> {
  const sent: unknown[] = [];
  const graph: GraphClient = {
    async send(_to, message) {
      sent.push(message);
      return 'wamid.1';
    },
    async download() {
      throw new Error('not used');
    },
    async markRead() {},
  };
  const notifier = createWhatsAppNotifier({
    graph,
    store: createWhatsAppStore(createMemoryStore(), 'lint:'),
    render: renderPrompt,
    logger: createLogger({ level: 'silent' }),
  });
  const prompt: Prompt = { key, params: sampleParams(key), input: 'none', final: true };
  await notifier.notify({ channel: 'whatsapp', address: '260971234567', locale: 'ny' }, prompt);
  expect(sent).toHaveLength(1);
  return sent[0] as TemplateMessage;
}

describe('the WhatsApp templates', () => {
  it('carry every pushed event, each by exactly one template, and nothing else', () => {
    const carried = WHATSAPP_TEMPLATES.flatMap((template) => template.keys);
    expect(new Set(carried).size).toBe(carried.length);
    expect([...carried].sort()).toEqual([...new Set(PUSHED_KEYS)].sort());
    for (const key of PUSHED_KEYS) expect(templateOf(key), key).toBeDefined();
    for (const key of carried) expect(LOCALES.en, key).toHaveProperty([key]);
  });

  it('have unique names WhatsApp Manager takes, each of the Utility category', () => {
    const names = WHATSAPP_TEMPLATES.map((template) => template.name);
    expect(new Set(names).size).toBe(names.length);
    for (const template of WHATSAPP_TEMPLATES) {
      expect(template.name).toMatch(/^[a-z0-9_]{1,512}$/);
      expect(template.category).toBe('UTILITY');
    }
  });

  it.each(WHATSAPP_TEMPLATES.map((template) => [template.name, template] as const))(
    '%s is worded as Meta approves: no placeholder first or last, named facts, a clear purpose',
    (_name, template) => {
      const body = template.body.en;
      expect(body.length).toBeLessThanOrEqual(1_024);
      expect(body.trim()).not.toMatch(/^\{\{/);
      // A placeholder followed by nothing but punctuation still ends the message.
      expect(body.trim()).not.toMatch(/\}\}[\s.!?"')]*$/);
      expect(body).not.toMatch(/\}\}\s*\{\{/);
      expect(body).not.toMatch(/[\n\t]| {4}/);
      const names = placeholdersOf(body);
      for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(new Set(names).size).toBe(names.length);
      expect(names).toEqual(Object.keys(template.parameters));
      // Meta refuses a body that is mostly variables: at least three fixed words per parameter.
      const fixedWords = body
        .replace(/\{\{[^}]*\}\}/g, ' ')
        .split(/\s+/)
        .filter(Boolean);
      expect(fixedWords.length).toBeGreaterThanOrEqual(3 * names.length + 5);
      // It says what it is about and what the customer can do.
      expect(body).toMatch(/insurance|policy|claim|cover/i);
      expect(body).toMatch(/Reply to this message|reply to this message/);
    },
  );

  it.each(PUSHED_KEYS)(
    '%s is sent outside the window with the named parameters its template body has',
    async (key) => {
      const template = templateOf(key);
      const message = await sentFor(key);
      expect(message.template.name).toBe(template?.name);
      expect(message.template.language.code).toBe('en');
      const parameters = message.template.components.flatMap((component) => component.parameters);
      expect(parameters.map((parameter) => parameter.parameter_name)).toEqual(
        placeholdersOf(template?.body.en ?? ''),
      );
      for (const parameter of parameters) {
        expect(parameter.text.trim()).not.toBe('');
        expect(parameter.text).not.toMatch(/[\n\t]| {4}/);
        expect(parameter.text).not.toMatch(/\{|\}/);
      }
    },
  );

  it('is the table docs/channels/whatsapp.md shows, word for word', async () => {
    const page = await readFile(
      new URL('../../../docs/channels/whatsapp.md', import.meta.url),
      'utf8',
    );
    expect(page).toContain(templatesMarkdown());
  });
});
