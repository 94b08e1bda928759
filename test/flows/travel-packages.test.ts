import { describe, expect, it } from 'vitest';
import { coversDestination } from '../../flows/checks.js';
import { quoteRequests, type TravelPackage } from '../../flows/travel-issue.js';
import { TRAVEL_PACKAGES } from '../../src/sandbox/index.js';

/** The sandbox's travel packages as the flow lists them, each with its region. */
const PACKAGES: TravelPackage[] = TRAVEL_PACKAGES.map((p) => ({
  id: String(p.id),
  name: p.name,
  region: p.region,
}));

const pricedFor = (destination: string) =>
  quoteRequests({
    packages: PACKAGES,
    callerPhone: '260971234567',
    answers: {
      destination,
      startDate: '2027-01-10',
      days: '7',
      name: 'Mwila Banda',
      nrc: '479974/11/1',
    },
  }).map((request) => PACKAGES.find((p) => p.id === request.packageId)?.name);

describe('travel packages offered for a destination', () => {
  it('offers Africa Explorer for an African country and never for Germany', () => {
    expect(pricedFor('South Africa')).toEqual(['Africa Explorer', 'Worldwide Standard']);
    expect(pricedFor('Germany')).toEqual(['Worldwide Standard']);
  });

  it('covers every destination with a worldwide package, or one whose region it does not know', () => {
    expect(coversDestination('Worldwide', 'Germany')).toBe(true);
    expect(coversDestination(undefined, 'Germany')).toBe(true);
    expect(coversDestination('Africa', 'Zambia')).toBe(true);
    expect(coversDestination('Africa', "Cote d'Ivoire")).toBe(true);
    expect(coversDestination('Africa', 'United Kingdom')).toBe(false);
  });
});
