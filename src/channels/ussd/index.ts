// USSD: gateway adapters over one core (for src/server and the web simulator), and the screen
// layout (for tests and benches). Its SMS notifier is src/channels/sms.

export {
  AfricasTalkingUssdBody,
  newestSegment,
  registerAfricasTalkingRoute,
} from './gateway/africastalking-adapter.js';
export { registerHubtelRoute } from './gateway/hubtel-adapter.js';
export { GSM7_TEXT, USSD_MAX_CHARS } from './gateway/ussd-wire.js';
export { createUssdCore, type UssdCore, ussdMiddleware } from './ussd-core.js';
export { ussdInputToReply } from './ussd-input.js';
export { toUssdScreens } from './ussd-screens.js';
