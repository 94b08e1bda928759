/** USSD-only strings, by locale; English is the fallback for a locale without its own entry. */
export const USSD_MESSAGES = {
  en: {
    more: '98 More',
    back: '0 Back',
    resumeTitle: 'You have an unfinished session.',
    resumeContinue: 'Continue',
    resumeRestart: 'Start again',
    useMyNumber: 'Use this number',
    stillWorking:
      'We are still working on it. We will send you an SMS when it is done. Dial again to continue.',
    sorry: 'Sorry, something went wrong on our side. Please dial again in a moment.',
    goodbye: 'Goodbye.',
  },
} as const satisfies Record<string, UssdMessages>;

/** Every string the USSD channel adds around a Prompt. */
export interface UssdMessages {
  readonly more: string;
  readonly back: string;
  readonly resumeTitle: string;
  readonly resumeContinue: string;
  readonly resumeRestart: string;
  readonly useMyNumber: string;
  readonly stillWorking: string;
  readonly sorry: string;
  readonly goodbye: string;
}

/** The USSD strings for `locale` (`en-ZM` falls back to `en`, anything unknown to English). */
export function ussdMessages(locale: string): UssdMessages {
  const catalogue: Record<string, UssdMessages> = USSD_MESSAGES;
  return catalogue[locale] ?? catalogue[locale.split('-')[0] ?? ''] ?? USSD_MESSAGES.en;
}
