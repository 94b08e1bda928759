// USSD: gateway adapters over one core (for src/server), the SMS notifier
// (for src/payments' wiring), and the screen layout (for the simulator and tests).

export {
  AfricasTalkingUssdBody,
  newestSegment,
  registerAfricasTalkingRoute,
  toAfricasTalkingText,
} from './africastalking-adapter.js';
export { HubtelUssdBody, registerHubtelRoute } from './hubtel-adapter.js';
export {
  AfricasTalkingSmsResponse,
  createSmsNotifier,
  SmsDeliveryError,
  type SmsDeliveryErrorCode,
  type SmsNotifierOptions,
} from './sms-notifier.js';
export {
  createUssdCore,
  type RenderPrompt,
  type UssdCore,
  type UssdCoreOptions,
  type UssdRequest,
  type UssdResponse,
  ussdInputToReply,
  ussdSessionKey,
} from './ussd-core.js';
export {
  GSM7_TEXT,
  type RenderedPrompt,
  toUssdScreens,
  USSD_BACK_KEY,
  USSD_MAX_CHARS,
  USSD_MORE_KEY,
} from './ussd-screens.js';
