import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeFailure, failurePrompt } from '../../flows/support.js';
import { ApiError } from '../../src/api/index.js';
import { nestedMessage, renderPrompt, t } from '../../src/conversation/index.js';
import { setInsurerWordsLogger } from '../../src/conversation/insurer-words.js';
import { createLogger } from '../../src/log/index.js';

function capture() {
  const destination = new PassThrough();
  const lines: string[] = [];
  destination.on('data', (chunk: Buffer) =>
    lines.push(...chunk.toString('utf8').trim().split('\n')),
  );
  return { logger: createLogger({ level: 'debug', destination }), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("the insurer's words in the caller's", () => {
  it('shows a known period, scope and document list in Bemba and Nyanja, and as the insurer wrote them in English', () => {
    const option = { label: '4 quarters', currency: 'ZMW', gross: '693.00' };
    expect(t('motor.durationOption', option, 'en')).toBe('4 quarters ZMW 693.00');
    expect(t('motor.durationOption', option, 'bem')).toBe('ifipindi 4 ifya myeshi 3 ZMW 693.00');
    expect(t('motor.durationOption', option, 'ny')).toBe('magawo 4 a miyezi 3 ZMW 693.00');
    const claim = {
      number: 'CLC-000001',
      status: 'status.claimReceived',
      documents: 'Death certificate, Loan statement',
    };
    expect(t('claim.intimated', claim, 'ny')).toBe(
      'Claim CLC-000001: claim yalandiridwa. Zikalata zofunika: Satifiketi ya imfa, Chikalata cha ngongole.',
    );
    expect(t('claim.intimated', claim, 'en')).toContain(
      'Documents needed: Death certificate, Loan statement.',
    );
  });

  it('shows a product choice in the caller’s words, keeping the insurer’s id', () => {
    const prompt = {
      key: 'motor.pickProduct',
      input: 'choice' as const,
      final: false,
      choices: [
        { id: '101', label: 'Motor Third Party', literal: true, words: 'product' as const },
        { id: '104', label: 'Motor Gold Plus', literal: true, words: 'product' as const },
      ],
    };
    expect(renderPrompt(prompt, 'bem').choices).toEqual([
      { id: '101', label: 'Inshuwalansi ya motoka ku bambi' },
      { id: '104', label: 'Motor Gold Plus' },
    ]);
    expect(renderPrompt(prompt, 'en').choices[0]?.label).toBe('Motor Third Party');
  });

  it('keeps a word it does not know as the insurer wrote it and logs it once, numbers masked', async () => {
    const { logger, lines } = capture();
    setInsurerWordsLogger(logger);
    const reason = { reason: 'Wallet 0977123456 is barred' };
    expect(t('pay.note.reason', reason, 'bem')).toBe('Umulandu: Wallet 0977123456 is barred.');
    t('pay.note.reason', reason, 'ny');
    await flush();
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        event: 'insurer.unknownWord',
        kind: 'reason',
        word: 'Wallet ########## is barred',
      }),
    ]);
    expect(lines.join('\n')).not.toContain('0977123456');
  });
});

/** The failure screen for the insurer refusing a field with `said`, as a flow shows it. */
function refusedWith(said: string) {
  const error = new ApiError({
    status: 422,
    operation: 'test',
    rawBody: JSON.stringify({ status: 422, message: 'Rule broken', errors: { lossDate: [said] } }),
  });
  return failurePrompt(describeFailure(error));
}

describe("the insurer's refusal in the caller's words ({said})", () => {
  it('shows the sandbox’s refusals in Bemba and Nyanja, and as the insurer wrote them in English', () => {
    const prompt = refusedWith('The vehicle is registered to another client');
    expect(renderPrompt(prompt, 'en').text).toContain(
      'The vehicle is registered to another client.',
    );
    for (const locale of ['bem', 'ny']) {
      const shown = renderPrompt(prompt, locale).text;
      expect(shown, locale).not.toContain('registered');
      expect(shown, locale).toContain(t('insurer.refusal.vehicleElsewhere', {}, locale));
    }
  });

  it('keeps the numbers a refusal names when it translates it', () => {
    const prompt = refusedWith(
      'Claims must be intimated within 90 days of the loss; this loss was 120 days ago',
    );
    expect(renderPrompt(prompt, 'en').text).toContain(
      'Claims must be intimated within 90 days of the loss; this loss was 120 days ago.',
    );
    for (const locale of ['bem', 'ny']) {
      const shown = renderPrompt(prompt, locale).text;
      expect(shown, locale).not.toContain('intimated');
      expect(shown, locale).toMatch(/\b90\b[\s\S]*\b120\b/);
    }
    const paid = refusedWith('This quotation is already paid (reference IC0123ABCD)');
    expect(renderPrompt(paid, 'ny').text).toContain('Yalipidwa kale (nambala IC0123ABCD).');
  });

  it('keeps a refusal it does not know in the insurer’s words and logs it once, numbers masked', async () => {
    const { logger, lines } = capture();
    setInsurerWordsLogger(logger);
    const prompt = refusedWith('The borrower 0977123456 is on a watch list');
    expect(renderPrompt(prompt, 'bem').text).toContain(
      'The borrower 0977123456 is on a watch list.',
    );
    renderPrompt(prompt, 'ny');
    await flush();
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        event: 'insurer.unknownWord',
        kind: 'refusal',
        word: 'The borrower ########## is on a watch list.',
      }),
    ]);
    expect(lines.join('\n')).not.toContain('0977123456');
  });
});

describe('what is bought, kept in no language', () => {
  it('names the purchase in the caller’s words wherever it is shown', () => {
    const what = nestedMessage('what.motor', { product: 'Motor Third Party', plate: 'BCD 4321' });
    const failed = { currency: 'ZMW', amount: '693.00', what };
    expect(t('pay.failed', failed, 'en')).toBe(
      'Payment of ZMW 693.00 for Motor Third Party for BCD 4321 did not go through. Nothing was charged.',
    );
    expect(t('pay.failed', failed, 'bem')).toBe(
      'Ukulipila ZMW 693.00 pa Inshuwalansi ya motoka ku bambi, motoka BCD 4321 tafyapitile. Tapali indalama yasendwa.',
    );
    expect(t('pay.note.itemPending', { item: what }, 'ny')).toContain(
      'Inshuwalansi ya galimoto kwa ena, galimoto BCD 4321',
    );
  });

  it('is one item per product and plate, the same whatever language the caller speaks', () => {
    const a = nestedMessage('what.motor', { product: 'Motor Third Party', plate: 'BCD 4321' });
    const b = nestedMessage('what.motor', { plate: 'BCD 4321', product: 'Motor Third Party' });
    const c = nestedMessage('what.motor', { product: 'Motor Comprehensive', plate: 'BCD 4321' });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).not.toMatch(/ for /);
  });

  it('shows text that only looks like a key as the data it is', () => {
    expect(t('pay.note.itemPending', { item: 'what.nothing|x' }, 'en')).toContain('what.nothing|x');
  });
});
