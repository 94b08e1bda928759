import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  claimTakesDocuments,
  insurerWord,
  reportingOnce,
  reportUnknownStatuses,
  type StatusSubject,
  statusWord,
} from '../../flows/status-words.js';
import * as schemas from '../../src/api/schemas.js';
import { t } from '../../src/conversation/index.js';

/*
 * Issue 36: a claim the insurer took past Documented reads as handled by the insurer, never as
 * unconfirmed cover; the mapping knows every status value the API schemas' enums define.
 */

describe('claim status words', () => {
  it('keeps the words of the states the spec names', () => {
    expect(statusWord('claim', 'Intimated')).toEqual({ key: 'status.claimReceived', known: true });
    expect(statusWord('claim', 'Documented')).toEqual({
      key: 'status.documentsReceived',
      known: true,
    });
  });

  it.each(['Approved', 'Settled', 'UnderAssessment', 'Paid'])(
    'reads %s (past Documented) as the insurer handling the claim, unknown',
    (status) => {
      expect(statusWord('claim', status)).toEqual({ key: 'status.claimHandled', known: false });
    },
  );

  it('still reads an unknown cover word as unconfirmed', () => {
    expect(statusWord('loan', 'UnderReview').key).toBe('status.unconfirmed');
  });

  it('takes documents only while Intimated or Documented', () => {
    expect(claimTakesDocuments('Intimated')).toBe(true);
    expect(claimTakesDocuments('documented')).toBe(true);
    for (const status of ['Approved', 'Settled', 'Rejected', '', 'Whatever']) {
      expect(claimTakesDocuments(status)).toBe(false);
    }
  });

  it('repeats the insurer’s word printable and bounded', () => {
    expect(insurerWord('Approved')).toBe('Approved');
    expect(insurerWord('  Under\n  review<script>  ')).toBe('Under reviewscript');
    expect(insurerWord('x'.repeat(80))).toHaveLength(30);
    expect(insurerWord('***')).toBe('-');
  });

  it.each([
    ['en', 'Claim CLC-1: the insurer is handling this claim (Approved).'],
    ['bem', 'Claim CLC-1: kampani ilebomba pali iyi claim (yasuminwa).'],
    ['ny', 'Claim CLC-1: kampani ikugwira ntchito pa claim iyi (yavomerezedwa).'],
  ])('renders the handling words with the insurer’s word, in %s words', (locale, text) => {
    const params = { number: 'CLC-1', status: 'status.claimHandled', insurerStatus: 'Approved' };
    expect(t('claim.detail.noPayable', params, locale)).toBe(text);
  });

  it('keeps an insurer word the mapping does not know as the insurer wrote it', () => {
    const params = { number: 'CLC-1', status: 'status.claimHandled', insurerStatus: 'Escalated' };
    expect(t('claim.detail.noPayable', params, 'bem')).toBe(
      'Claim CLC-1: kampani ilebomba pali iyi claim (Escalated).',
    );
  });
});

describe('reporting unknown words', () => {
  it('reports each unknown claim word once per call, and never a known one', () => {
    const reported: string[] = [];
    reportUnknownStatuses(
      (subject, status) => reported.push(`${subject}:${status}`),
      [
        { subject: 'claim', status: 'Approved' },
        { subject: 'claim', status: 'Approved' },
        { subject: 'claim', status: 'Intimated' },
        { subject: 'claim', status: 'Settled' },
      ],
    );
    expect(reported).toEqual(['claim:Approved', 'claim:Settled']);
  });

  it('reportingOnce passes each subject and word on once for its whole life', () => {
    const reported: string[] = [];
    const report = reportingOnce((subject, status) => reported.push(`${subject}:${status}`));
    report('claim', 'Approved');
    report('claim', 'APPROVED');
    report('loan', 'Approved');
    report('claim', 'Approved');
    expect(reported).toEqual(['claim:Approved', 'loan:Approved']);
  });
});

describe('the mapping against the API schemas’ status enums', () => {
  /** Status enums of the schemas and the records whose mapping must know each value. */
  const STATUS_ENUMS: ReadonlyArray<
    readonly [string, readonly string[], readonly StatusSubject[]]
  > = [
    ['ClaimStatus', schemas.ClaimStatus.options, ['claim']],
    ['BatchStatus', schemas.BatchStatus.options, ['policy', 'loan', 'member', 'household']],
  ];

  it.each(STATUS_ENUMS)('maps every %s value', (_name, values, subjects) => {
    for (const subject of subjects) {
      const unmapped = values.filter((value) => !statusWord(subject, value).known);
      expect({ subject, unmapped }).toEqual({ subject, unmapped: [] });
    }
  });

  it('covers every status enum the schema module defines', () => {
    const statusEnums = Object.entries(schemas)
      .filter(([name, value]) => name.endsWith('Status') && value instanceof z.ZodEnum)
      .map(([name]) => name);
    expect(statusEnums.sort()).toEqual(STATUS_ENUMS.map(([name]) => name).sort());
  });
});
