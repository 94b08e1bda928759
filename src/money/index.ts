/*
 * Money as users read it: the one formatter of amounts, for the flows' screens, payment links and
 * reminders alike.
 */
export { formatMoney } from './format-money.js';
