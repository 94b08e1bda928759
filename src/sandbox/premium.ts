/** The default insurance premium levy rate (5%, Zambia since 2022); configurable per sandbox. */
export const DEFAULT_LEVY_RATE = 0.05;

/** Premium split the way the API returns it. */
export interface PremiumBreakdown {
  readonly basicPremium: number;
  readonly levyPremium: number;
  readonly grossPremium: number;
}

/** Rounds money to cents, avoiding binary drift such as 0.1 + 0.2. */
export function roundMoney(amount: number): number {
  return Math.round((amount + Number.EPSILON) * 100) / 100;
}

/** Adds the levy to a basic premium. */
export function withLevy(basicPremium: number, levyRate: number): PremiumBreakdown {
  const basic = roundMoney(basicPremium);
  const levy = roundMoney(basic * levyRate);
  return { basicPremium: basic, levyPremium: levy, grossPremium: roundMoney(basic + levy) };
}

/**
 * Premium for a rated cover: `rate × sumInsured`, or `flatPremium` when the cover is flat-priced
 * (third party), plus the levy. `scale` pro-rates for a term shorter or longer than the base term.
 */
export function calculatePremium(input: {
  readonly levyRate: number;
  readonly rate?: number;
  readonly sumInsured?: number;
  readonly flatPremium?: number;
  readonly scale?: number;
}): PremiumBreakdown {
  const scale = input.scale ?? 1;
  const basic =
    input.flatPremium !== undefined
      ? input.flatPremium * scale
      : (input.rate ?? 0) * (input.sumInsured ?? 0) * scale;
  return withLevy(basic, input.levyRate);
}
