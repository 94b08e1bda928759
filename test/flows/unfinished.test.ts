import { describe, expect, it } from 'vitest';
import { claimUnfinished, motorUnfinished, travelUnfinished } from '../../flows/unfinished.js';
import { t } from '../../src/conversation/index.js';

describe('what the resume offer says is unfinished', () => {
  it('names the plate of motor cover being bought, in each language', () => {
    const said = motorUnfinished({ plate: 'BCD 4321', make: 'Toyota' });
    expect(said).toEqual({ key: 'resume.motorFor', params: { plate: 'BCD 4321' } });
    expect(t(said?.key ?? '', said?.params, 'en')).toBe('Buying motor cover for BCD 4321.');
    expect(t(said?.key ?? '', said?.params, 'bem')).toBe(
      'Ukushita inshuwalansi ya motoka BCD 4321.',
    );
    expect(t(said?.key ?? '', said?.params, 'ny')).toBe(
      'Kugula inshuwalansi ya galimoto BCD 4321.',
    );
  });

  it('says what without naming it before the answer that names it', () => {
    expect(motorUnfinished({})).toEqual({ key: 'resume.motor' });
    expect(travelUnfinished({ destination: '  ' })).toEqual({ key: 'resume.travel' });
    expect(claimUnfinished(undefined)).toEqual({ key: 'resume.claim' });
  });

  it('names the destination of travel cover and the loan or member of a claim', () => {
    expect(travelUnfinished({ destination: 'South Africa' })).toEqual({
      key: 'resume.travelTo',
      params: { destination: 'South Africa' },
    });
    expect(claimUnfinished({ label: 'KL-DEMO-ACTIVE' })).toEqual({
      key: 'resume.claimFor',
      params: { label: 'KL-DEMO-ACTIVE' },
    });
  });
});
