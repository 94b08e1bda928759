// Reaching a customer outside a turn where the platform sets rules on it: WhatsApp's 24-hour
// window, the approved template sent outside it and the whole message held until the customer
// writes, a template Meta paused or refused sent by SMS instead, and what Meta reports of what
// was sent. Delivery policy, not the channel's parsing and rendering: the channel only opens the
// window and takes what was held at a customer's message, through a port src/server hands it.
export { createWhatsAppNotifier } from './whatsapp-notifier.js';
export { createWhatsAppStore } from './whatsapp-store.js';
