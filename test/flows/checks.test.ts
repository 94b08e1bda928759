import { describe, expect, it } from 'vitest';
import {
  checkDescription,
  checkIdentifier,
  checkName,
  checkWords,
  LOOKUP_LENGTH,
} from '../../flows/checks.js';
import { checkFullName } from '../../flows/travel-issue.js';
import {
  CreateIndividualBody,
  CreateVehicleBody,
  FIELD_LENGTHS,
  IntimateCreditLifeClaimBody,
  TravelBeneficiary,
} from '../../src/api/index.js';

describe('checkDescription', () => {
  it('accepts a claim description far longer than a USSD screen, up to the field', () => {
    const story = 'The car was hit from behind at the traffic lights on Cairo Road. '.repeat(20);
    expect(story.trim().length).toBeGreaterThan(1000);
    expect(checkDescription(story, FIELD_LENGTHS.description)).toEqual({
      ok: true,
      value: story.trim(),
    });
  });

  it('rejects an empty answer, punctuation alone and more than the field takes', () => {
    const max = FIELD_LENGTHS.description;
    for (const text of ['', '   ', '!!', 'a'.repeat(max + 1)]) {
      expect(checkDescription(text, max)).toEqual({
        ok: false,
        reason: 'flow.note.badDescription',
        params: { max },
      });
    }
  });
});

describe('limits of typed answers', () => {
  it('come from the request schema of the field each answer fills', () => {
    expect(CreateVehicleBody.shape.make.maxLength).toBe(FIELD_LENGTHS.make);
    expect(CreateVehicleBody.shape.chassisNumber.maxLength).toBe(FIELD_LENGTHS.chassisNumber);
    expect(CreateIndividualBody.shape.firstName.maxLength).toBe(FIELD_LENGTHS.firstName);
    expect(TravelBeneficiary.shape.lastName.maxLength).toBe(FIELD_LENGTHS.lastName);
    const long = 'x'.repeat(FIELD_LENGTHS.description + 1);
    const claim = IntimateCreditLifeClaimBody.safeParse({
      partnerLoanReference: 'LN-1',
      claimType: 'Death',
      lossDate: '2026-11-01',
      description: long,
    });
    expect(claim.success).toBe(false);
  });

  it('take a make as long as the vehicle field allows and say the limit when over it', () => {
    const make = 'Mercedes-Benz Commercial Vehicles Zambia'.padEnd(FIELD_LENGTHS.make, 'x');
    expect(make.length).toBeGreaterThan(60 - 20);
    expect(checkWords(make, FIELD_LENGTHS.make).ok).toBe(true);
    expect(checkWords(`${make}x`, FIELD_LENGTHS.make)).toEqual({
      ok: false,
      reason: 'flow.note.badText',
      params: { max: FIELD_LENGTHS.make },
    });
  });

  it('take a traveller name of more than 40 characters', () => {
    const name = 'Chilufya Mwansa-Kabwe Nakamba Mulenga Chisanga';
    expect(name.length).toBeGreaterThan(40);
    expect(checkFullName(name)).toEqual({ ok: true, value: name });
    expect(checkName(name, FIELD_LENGTHS.firstName).ok).toBe(true);
  });

  it('take a chassis number to its field length and printed numbers to the lookup length', () => {
    const chassis = 'JTDBT923771234567-AB-2019-000';
    expect(chassis.length).toBeLessThanOrEqual(FIELD_LENGTHS.chassisNumber);
    expect(checkIdentifier(chassis, FIELD_LENGTHS.chassisNumber).ok).toBe(true);
    expect(checkIdentifier('C'.repeat(FIELD_LENGTHS.chassisNumber + 1), 30)).toMatchObject({
      ok: false,
      params: { max: 30 },
    });
    expect(checkIdentifier('CLC-000001').ok).toBe(true);
    expect(checkIdentifier('C'.repeat(LOOKUP_LENGTH + 1)).ok).toBe(false);
  });
});
