import { describe, expect, it } from 'vitest';
import {
  CHASSIS_LENGTH,
  checkChassis,
  checkCountry,
  checkDescription,
  checkIdentifier,
  checkMake,
  checkName,
  checkNameParts,
  checkPlate,
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

describe('checkPlate', () => {
  it('takes a standard plate and a personalised one with a letter in it', () => {
    expect(checkPlate('bcd4321')).toEqual({ ok: true, value: 'BCD 4321' });
    expect(checkPlate('GRZ KING 1')).toEqual({ ok: true, value: 'GRZ KING 1' });
  });

  it('asks again for digits alone, which are never a Zambian plate', () => {
    for (const text of ['12345678', '1234', '0977 123 456']) {
      expect(checkPlate(text)).toEqual({ ok: false, reason: 'validation.plate.format' });
    }
  });
});

describe('checkMake', () => {
  it('takes the makes sold in Zambia as typed, spaces tidied', () => {
    for (const make of [
      'Toyota',
      'Mercedes-Benz',
      'Land  Rover',
      'BMW',
      'Rolls-Royce',
      'Citroën',
    ]) {
      expect(checkMake(make, FIELD_LENGTHS.make)).toEqual({
        ok: true,
        value: make.replace(/\s+/g, ' '),
      });
    }
  });

  it('asks again for a number, punctuation first, or more than the field takes', () => {
    for (const text of ['123456789', '4x4', '', '-Toyota', `T${'o'.repeat(FIELD_LENGTHS.make)}`]) {
      expect(checkMake(text, FIELD_LENGTHS.make)).toEqual({
        ok: false,
        reason: 'flow.note.badMake',
      });
    }
  });
});

describe('checkChassis', () => {
  it('takes a 17-character VIN and an older frame number with its dash', () => {
    for (const chassis of ['JTDBR32E720012345', 'NZE121-1234567', 'CH123456', 'AB123']) {
      expect(checkChassis(chassis, FIELD_LENGTHS.chassisNumber)).toEqual({
        ok: true,
        value: chassis,
      });
    }
  });

  it('asks again for fewer than 5 or more than 17 letters and digits, or punctuation', () => {
    for (const text of ['1', 'AB12', 'JTDBR32E7200123456', 'CH-', 'CH#12345', '']) {
      expect(checkChassis(text, FIELD_LENGTHS.chassisNumber)).toEqual({
        ok: false,
        reason: 'flow.note.badChassis',
        params: CHASSIS_LENGTH,
      });
    }
  });
});

describe('checkCountry', () => {
  it('takes a country as callers type it and answers its name', () => {
    expect(checkCountry('germany')).toEqual({ ok: true, value: 'Germany' });
    expect(checkCountry('  South   Africa ')).toEqual({ ok: true, value: 'South Africa' });
    expect(checkCountry('USA')).toEqual({ ok: true, value: 'United States' });
    expect(checkCountry('uk')).toEqual({ ok: true, value: 'United Kingdom' });
    expect(checkCountry('DRC')).toEqual({ ok: true, value: 'Congo - Kinshasa' });
    expect(checkCountry('Tanzania')).toEqual({ ok: true, value: 'Tanzania' });
  });

  it('answers names a USSD screen shows as typed: no accents, a plain apostrophe', () => {
    expect(checkCountry("Cote d'Ivoire")).toEqual({ ok: true, value: "Cote d'Ivoire" });
    expect(checkCountry('ivory coast')).toEqual({ ok: true, value: "Cote d'Ivoire" });
    expect(checkCountry('Sao Tome and Principe')).toEqual({
      ok: true,
      value: 'Sao Tome & Principe',
    });
  });

  it('asks again for a place that is no country, a number or nothing', () => {
    for (const text of ['Atlantis', '1', '', 'Lusaka', '!!']) {
      expect(checkCountry(text)).toEqual({ ok: false, reason: 'flow.note.badCountry' });
    }
  });

  it('keeps every country name within the insurer’s destination field', () => {
    for (const text of ['Bosnia and Herzegovina', 'Central African Republic']) {
      const checked = checkCountry(text);
      expect(checked.ok).toBe(true);
      if (checked.ok) expect(checked.value.length).toBeLessThanOrEqual(FIELD_LENGTHS.destination);
    }
  });
});
