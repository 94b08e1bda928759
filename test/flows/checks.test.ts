import { describe, expect, it } from 'vitest';
import {
  checkDescription,
  checkIdentifier,
  checkName,
  checkNameParts,
  checkVehicleName,
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

describe('checkVehicleName', () => {
  const max = { make: FIELD_LENGTHS.make, model: FIELD_LENGTHS.model };

  it('splits one answer into make, model and year, the year last', () => {
    expect(checkVehicleName('Toyota Corolla 2015', '2026-11-28', max)).toEqual({
      ok: true,
      value: { make: 'Toyota', model: 'Corolla', year: '2015' },
    });
    expect(checkVehicleName('  nissan  hardbody d22 2008 ', '2026-11-28', max)).toEqual({
      ok: true,
      value: { make: 'nissan', model: 'hardbody d22', year: '2008' },
    });
  });

  it('keeps a two-word make whole', () => {
    expect(checkVehicleName('Land Rover Defender 110 2019', '2026-11-28', max)).toEqual({
      ok: true,
      value: { make: 'Land Rover', model: 'Defender 110', year: '2019' },
    });
  });

  it('asks for make, model and year when one is missing, and says a wrong year', () => {
    for (const text of ['Toyota Corolla', 'Toyota 2015', 'Land Rover 2019', '2015', '']) {
      expect(checkVehicleName(text, '2026-11-28', max)).toEqual({
        ok: false,
        reason: 'flow.note.vehicleName',
      });
    }
    expect(checkVehicleName('Toyota Corolla 1800', '2026-11-28', max)).toEqual({
      ok: false,
      reason: 'flow.note.badYear',
    });
  });
});

describe('checkNameParts', () => {
  const max = { first: FIELD_LENGTHS.firstName, last: FIELD_LENGTHS.lastName };

  it('takes the last word as the last name and the words before it as the first', () => {
    expect(checkNameParts('Jane Banda', max)).toEqual({
      ok: true,
      value: { firstName: 'Jane', lastName: 'Banda' },
    });
    expect(checkNameParts(' Mwila  Chanda Banda ', max)).toEqual({
      ok: true,
      value: { firstName: 'Mwila Chanda', lastName: 'Banda' },
    });
  });

  it('asks a single word for a first and a last name, and refuses what is no name', () => {
    expect(checkNameParts('Jane', max)).toEqual({ ok: false, reason: 'flow.note.fullName' });
    expect(checkNameParts('Jane 42', max)).toMatchObject({
      ok: false,
      reason: 'flow.note.badName',
    });
    expect(checkNameParts('42', max)).toMatchObject({ ok: false, reason: 'flow.note.badName' });
  });
});
