import type { Json } from './state.js';

/** The sandbox insurer as embedded in products. */
export const SANDBOX_INSURER = {
  id: 1,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  name: 'Sandbox General Insurance Ltd',
  shortName: 'SGI',
  logoUrl: 'https://sandbox.invalid/logo.png',
  address: 'Plot 1, Cairo Road, Lusaka',
  email: 'underwriting@sandbox.invalid',
  externalInsurerId: 'SGI-001',
} as const;

const STAMP = '2024-01-01T00:00:00.000Z';

/** Motor cover kinds and how each is priced. */
export interface MotorProductDefinition {
  readonly id: number;
  readonly name: string;
  readonly productType: 'ThirdParty' | 'TPFT' | 'Comprehensive';
  readonly durationType: 'Quarters' | 'Months';
  /** Durations offered, in `durationType` units. */
  readonly durations: readonly number[];
  /** Flat third-party premium per unit of duration, by risk category. */
  readonly flatPerUnit?: Readonly<Record<string, number>>;
  /** Annual rate on the sum insured. */
  readonly annualRate?: number;
}

/** Motor risk categories (private, commercial, public service). */
export const MOTOR_RISK_CATEGORIES = [
  { id: 'mrc_private', name: 'Private', description: 'Private motor vehicles' },
  { id: 'mrc_commercial', name: 'Commercial', description: 'Goods-carrying vehicles' },
  { id: 'mrc_psv', name: 'Public Service Vehicle', description: 'Buses and taxis' },
] as const;

const THIRD_PARTY_PER_QUARTER: Record<string, number> = {
  mrc_private: 165,
  mrc_commercial: 240,
  mrc_psv: 310,
};

/** The motor products on offer. */
export const MOTOR_PRODUCTS: readonly MotorProductDefinition[] = [
  {
    id: 101,
    name: 'Motor Third Party',
    productType: 'ThirdParty',
    durationType: 'Quarters',
    durations: [1, 2, 3, 4],
    flatPerUnit: THIRD_PARTY_PER_QUARTER,
  },
  {
    id: 102,
    name: 'Motor Third Party, Fire and Theft',
    productType: 'TPFT',
    durationType: 'Months',
    durations: [3, 6, 12],
    annualRate: 0.025,
  },
  {
    id: 103,
    name: 'Motor Comprehensive',
    productType: 'Comprehensive',
    durationType: 'Months',
    durations: [3, 6, 12],
    annualRate: 0.05,
  },
];

/** A motor product as the API returns it. */
export function motorProductView(product: MotorProductDefinition): Json {
  return {
    id: product.id,
    name: product.name,
    createdAt: STAMP,
    updatedAt: STAMP,
    productType: product.productType,
    durationType: product.durationType,
    policyClauses: ['Subject to the Road Traffic Act'],
    documents: [
      {
        id: product.id * 10,
        createdAt: STAMP,
        updatedAt: STAMP,
        riskCategoryId: 1,
        productId: String(product.id),
        url: `https://sandbox.invalid/products/${product.id}/wording.pdf`,
        name: 'Policy wording',
      },
    ],
    insurer: SANDBOX_INSURER,
    thirdPartyRates: product.flatPerUnit
      ? Object.entries(product.flatPerUnit).map(([riskCategoryId, premium]) => ({
          riskCategoryId,
          premium,
        }))
      : [],
    comprehensiveRates: product.annualRate ? [{ rate: product.annualRate }] : [],
  };
}

/** A travel package: a daily rate per traveller. */
export interface TravelPackageDefinition {
  readonly id: number;
  readonly name: string;
  readonly code: string;
  readonly dailyRate: number;
  readonly region: string;
}

/** Travel packages: a daily rate per traveller. */
export const TRAVEL_PACKAGES: readonly TravelPackageDefinition[] = [
  { id: 201, name: 'Africa Explorer', code: 'TRV-AF', dailyRate: 12, region: 'Africa' },
  { id: 202, name: 'Worldwide Standard', code: 'TRV-WW', dailyRate: 25, region: 'Worldwide' },
];

/** The motor products and travel packages a sandbox offers (tests may offer more, or none). */
export interface SandboxCatalogue {
  readonly motor: readonly MotorProductDefinition[];
  readonly travel: readonly TravelPackageDefinition[];
}

/** The catalogue of a sandbox context: its own, or the standard one. */
export function catalogueOf(ctx: { readonly catalogue?: Partial<SandboxCatalogue> | undefined }) {
  return {
    motor: ctx.catalogue?.motor ?? MOTOR_PRODUCTS,
    travel: ctx.catalogue?.travel ?? TRAVEL_PACKAGES,
  } satisfies SandboxCatalogue;
}

/** Life products: an annual rate on the sum assured. */
export const LIFE_PRODUCTS = [
  { id: 301, name: 'Term Life', code: 'LIFE-TERM', annualRate: 0.012, defaultSumAssured: 100_000 },
  { id: 302, name: 'Funeral Plan', code: 'LIFE-FUN', annualRate: 0.03, defaultSumAssured: 20_000 },
] as const;

/** General products: an annual rate on the sum insured. */
export const GENERAL_PRODUCTS = [
  { id: 401, name: 'Householders', code: 'GEN-HH', annualRate: 0.004, classOfBusiness: 'Property' },
  { id: 402, name: 'Crop Insurance', code: 'GEN-CROP', annualRate: 0.06, classOfBusiness: 'Agric' },
] as const;

/** A non-motor product as the API returns it. */
export function productView(
  product: { id: number; name: string; code: string },
  productType: string,
  extra: Json = {},
): Json {
  return {
    id: product.id,
    name: product.name,
    description: `${product.name} (sandbox)`,
    code: product.code,
    productType,
    classOfBusiness: { id: 1, name: productType, order: 1 },
    insurer: SANDBOX_INSURER,
    createdAt: STAMP,
    updatedAt: STAMP,
    ...extra,
  };
}

/** The credit-life product assigned to the partner account. */
export const CREDIT_LIFE_PRODUCT = {
  id: 501,
  name: 'Credit Life Cover',
  description: 'Pays the outstanding loan balance on death or permanent disability',
  code: 'CL-STD',
  insurerName: SANDBOX_INSURER.name,
  insurerLogoUrl: SANDBOX_INSURER.logoUrl,
  fixedPremiumAmount: 0,
  freeCoverLimit: 250_000,
  coverPeriodMonths: 1,
  coverPeriodDuration: 1,
  coverPeriodDurationType: 'Months',
  premiumGraceDays: 30,
  aggregateClaimLimit: 5_000_000,
  claimNotificationDays: 90,
  minimumAge: 18,
  maximumAge: 70,
  maxTenure: 60,
  rateBands: [
    { fromMonths: 1, toMonths: 12, rate: 0.01 },
    { fromMonths: 13, toMonths: 36, rate: 0.025 },
    { fromMonths: 37, toMonths: 60, rate: 0.04 },
  ],
  scopesOfCover: [
    {
      id: 1,
      name: 'Death',
      description: 'Death from any cause',
      percentageOfSumAssured: 100,
      clauses: [],
      claimRequirements: ['Death certificate', 'Loan statement'],
    },
    {
      id: 2,
      name: 'Permanent disability',
      description: 'Total and permanent disability',
      percentageOfSumAssured: 100,
      clauses: [],
      claimRequirements: ['Medical report', 'Loan statement'],
    },
    {
      id: 3,
      name: 'Retrenchment',
      description: 'Loss of employment',
      percentageOfSumAssured: 50,
      clauses: [],
      claimRequirements: ['Termination letter'],
    },
  ],
  documents: [{ id: 1, name: 'Policy wording', url: 'https://sandbox.invalid/cl/wording.pdf' }],
} as const;

/** Payment gateways available to the partner account. */
export const PAYMENT_GATEWAYS = [
  { id: 1, name: 'Sandbox Mobile Money', method: 'MobileMoney', currency: 'ZMW' },
  { id: 2, name: 'Sandbox Card (3-D Secure)', method: 'Card', currency: 'ZMW' },
] as const;
