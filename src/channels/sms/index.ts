// SMS: the notifier that reaches USSD callers out of a turn (a payment's outcome, a person's
// reply), through Africa's Talking's messaging API: its own transport and its own 160-character
// segments, sharing only the render contract with the USSD screens.

export {
  AfricasTalkingSmsResponse,
  createSmsNotifier,
  SMS_SEGMENT_CHARS,
  SmsDeliveryError,
  type SmsDeliveryErrorCode,
  type SmsNotifierOptions,
} from './sms-notifier.js';
