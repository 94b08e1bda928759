import { describe, expect, it } from 'vitest';
import { createUploadLinks, UploadLinkError } from '../../src/claim-documents/index.js';

const claim = { line: 'group-life', claimId: 'clm_7b1d5f3a9c42' } as const;

function links(at: { ms: number }, secret = 'secret-one') {
  return createUploadLinks({
    signingSecret: secret,
    publicUrl: () => 'https://bot.example.test/',
    ttlSeconds: 3_600,
    now: () => at.ms,
  });
}

const tokenOf = (link: string) => link.slice(link.indexOf('/d/') + 3);

describe('claim documents links', () => {
  it('are short and open the claim they were signed for', () => {
    const clock = { ms: Date.UTC(2026, 10, 25) };
    const link = links(clock).link(claim);
    expect(link).toMatch(/^https:\/\/bot\.example\.test\/d\/g\.clm_7b1d5f3a9c42\.\w+\.[\w-]{22}$/);
    expect(link.length).toBeLessThan(80);
    expect(links(clock).verify(tokenOf(link))).toEqual(claim);
  });

  it('keep the very token of links already sent, owner included, for the same claim, secret and time', () => {
    const clock = { ms: Date.UTC(2026, 10, 25) };
    const link = links(clock).link({ ...claim, phone: '260971234567' });
    expect(tokenOf(link)).toBe('g.clm_7b1d5f3a9c42.tp19g0.OiZHg6tjMlvA.mQnqMF9HCSfyAeSKC1Cm-6');
  });

  it('refuse another claim, another secret, and an altered signature', () => {
    const clock = { ms: Date.UTC(2026, 10, 25) };
    const token = tokenOf(links(clock).link(claim));
    const codes = [
      token.replace('clm_7b1d5f3a9c42', 'clm_000000000000'),
      token.replace(/^g\./, 'c.'),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
    ].map((forged) => {
      try {
        links(clock).verify(forged);
        return 'opened';
      } catch (error) {
        return error instanceof UploadLinkError ? error.code : 'other';
      }
    });
    expect(codes).toEqual(['LINK_FORGED', 'LINK_FORGED', 'LINK_FORGED']);
    expect(() => links(clock, 'secret-two').verify(token)).toThrow(/not valid/);
  });

  it('expire after their time and refuse what is not a token', () => {
    const clock = { ms: Date.UTC(2026, 10, 25) };
    const token = tokenOf(links(clock).link(claim));
    clock.ms += 3_599_000;
    expect(links(clock).verify(token)).toEqual(claim);
    clock.ms += 2_000;
    expect(() => links(clock).verify(token)).toThrow(
      expect.objectContaining({ code: 'LINK_EXPIRED' }),
    );
    expect(() => links(clock).verify('../../etc/passwd')).toThrow(
      expect.objectContaining({ code: 'LINK_MALFORMED' }),
    );
  });

  it('carry the owner of what is uploaded as a short keyed hash, never the phone', () => {
    const clock = { ms: Date.UTC(2026, 10, 25) };
    const link = links(clock).link({ ...claim, phone: '+260 97 1234567' });
    expect(link).not.toMatch(/971234567|4567/);
    expect(link.length).toBeLessThan(95);
    const opened = links(clock).verify(tokenOf(link));
    // Every form of the phone is the same owner; another phone or secret is another one.
    expect(opened).toEqual({ ...claim, owner: links(clock).ownerOf('0971234567') });
    expect(opened.owner).toMatch(/^upload:[\w-]{12}$/);
    expect(links(clock).ownerOf('260971234568')).not.toBe(opened.owner);
    expect(links(clock, 'secret-two').ownerOf('260971234567')).not.toBe(opened.owner);
    expect(links(clock).ownerOf('not a phone')).toBeUndefined();
    // The owner is signed: swapping it for another's forges the link.
    const theirs = tokenOf(links(clock).link({ ...claim, phone: '260971234568' }));
    const swapped = tokenOf(link).replace(/\.[\w-]{12}\./, `.${theirs.split('.')[3]}.`);
    expect(() => links(clock).verify(swapped)).toThrow(
      expect.objectContaining({ code: 'LINK_FORGED' }),
    );
  });
});
