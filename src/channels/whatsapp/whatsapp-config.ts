import { z } from 'zod';

/** A variable set to the empty string (`FOO=` in a .env file) is absent. */
const blankIsAbsent = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const optional = z.preprocess(blankIsAbsent, z.string().trim().min(1).optional());

/** The WhatsApp Cloud API variables, spread into the server's environment schema. */
export const WhatsAppEnv = {
  /** Graph API root with its version; a local one for tests. */
  WHATSAPP_API_URL: z.preprocess(
    (value) => blankIsAbsent(value) ?? 'https://graph.facebook.com/v21.0',
    z.url(),
  ),
  /** The business phone number's id (not the number itself); the channel is off without it. */
  WHATSAPP_PHONE_NUMBER_ID: optional,
  /** A system user's permanent access token. Never logged. */
  WHATSAPP_ACCESS_TOKEN: optional,
  /** The Meta app's secret: signs every webhook POST (`X-Hub-Signature-256`). */
  WHATSAPP_APP_SECRET: optional,
  /** What the webhook's GET verification must echo (`hub.verify_token`). */
  WHATSAPP_VERIFY_TOKEN: optional,
};

const WhatsAppVariables = z.object(WhatsAppEnv);
type WhatsAppVariables = z.infer<typeof WhatsAppVariables>;

/** The channel's settings; present when the phone number id, token and secrets are all set. */
export interface WhatsAppConfig {
  readonly apiUrl: string;
  readonly phoneNumberId: string;
  readonly accessToken: string;
  readonly appSecret: string;
  readonly verifyToken: string;
}

const REQUIRED = [
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
] as const;

/**
 * The channel's settings from the validated variables: undefined (the channel off) when none of
 * the four is set; the names of those missing when only some are (a half-configured channel
 * would accept webhooks it cannot answer, or answer ones it cannot verify).
 */
export function whatsappConfigOf(e: WhatsAppVariables): {
  readonly config: WhatsAppConfig | undefined;
  readonly missing: readonly string[];
} {
  const missing = REQUIRED.filter((name) => e[name] === undefined);
  if (missing.length === REQUIRED.length) return { config: undefined, missing: [] };
  if (missing.length > 0) return { config: undefined, missing };
  return {
    config: {
      apiUrl: e.WHATSAPP_API_URL.replace(/\/+$/, ''),
      phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID ?? '',
      accessToken: e.WHATSAPP_ACCESS_TOKEN ?? '',
      appSecret: e.WHATSAPP_APP_SECRET ?? '',
      verifyToken: e.WHATSAPP_VERIFY_TOKEN ?? '',
    },
    missing: [],
  };
}
