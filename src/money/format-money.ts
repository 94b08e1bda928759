// One formatter for the process: Intl formatters are costly to build and every priced screen
// shows amounts.
const MONEY = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * An amount as users read it, without its currency: 13125 shows as `13,125.00`. Screens put the
 * currency beside it (`ZMW 13,125.00`) from the insurer's own field.
 */
export function formatMoney(amount: number): string {
  return MONEY.format(amount);
}
