// USSD: gateway adapters over one core (for src/server), and the screen layout (for the
// simulator and tests). Its SMS notifier is src/channels/sms.

export {
  AfricasTalkingUssdBody,
  newestSegment,
  registerAfricasTalkingRoute,
  toAfricasTalkingText,
} from './gateway/africastalking-adapter.js';
export { HubtelUssdBody, registerHubtelRoute } from './gateway/hubtel-adapter.js';
export {
  createUssdCore,
  type UssdCore,
  type UssdCoreOptions,
  type UssdResponse,
} from './ussd-core.js';
// The engine middleware the USSD core needs (src/server adds it with `engine.use`).
export type { UssdRequest } from './ussd-decision.js';
export { ussdInputToReply, ussdSessionKey } from './ussd-input.js';
export type { RenderPrompt } from './ussd-layout.js';
export {
  GSM7_TEXT,
  type RenderedPrompt,
  toUssdScreens,
  USSD_BACK_KEY,
  USSD_MAX_CHARS,
  USSD_MORE_KEY,
} from './ussd-screens.js';
export { ussdMiddleware } from './ussd-turn.js';
