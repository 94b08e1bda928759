import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type OperationName, operationNames } from '../api/index.js';
import { CLAIM_MAX_BYTES, CLAIM_MAX_FILES } from '../claim-documents/index.js';
import { CodedError } from '../errors/index.js';
import { parseS3Url, type S3Location } from '../files/index.js';
import { type LimitsConfig, LimitsEnv, limitsConfigOf } from '../limits/index.js';
import { SANDBOX_PRIVACY_NOTICE } from '../privacy/index.js';
import { HostPort, type RedisTarget } from '../redis/index.js';

/** An unset variable is absent, and so is one set to the empty string (`FOO=` in a .env file). */
const optionalString = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.string().trim().min(1).optional(),
);
const optionalUrl = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.url().optional(),
);
/** A secret set by the operator: blank is absent, a short one is refused (it keys an HMAC). */
const optionalSecret = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .string()
    .trim()
    .min(16, 'must be at least 16 characters (e.g. openssl rand -hex 32)')
    .optional(),
);
/** A Slack channel id (`C…` or `G…`), as the Web API takes it; blank is absent. */
const optionalSlackChannel = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .string()
    .trim()
    .regex(/^[CG][A-Z0-9]{2,}$/, 'a Slack channel id such as C0123ABCD (not its #name)')
    .optional(),
);
/** A comma-separated list; blanks dropped. */
const commaList = z.preprocess(
  (value) => (typeof value === 'string' ? value : ''),
  z.string().transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  ),
);

/** WhatsApp's settings, read from the WHATSAPP_ variables by {@link whatsappConfigOf}. */
export interface WhatsAppConfig {
  readonly apiUrl: string;
  readonly phoneNumberId: string;
  readonly accessToken: string;
  readonly appSecret: string;
  readonly verifyToken: string;
}

/** The WhatsApp Cloud API variables, spread into the environment schema below. */
export const WhatsAppEnv = {
  /** Graph API root with its version; a local one for tests. */
  WHATSAPP_API_URL: z.preprocess(
    (value) =>
      (typeof value === 'string' && value.trim() === '' ? undefined : value) ??
      'https://graph.facebook.com/v21.0',
    z.url(),
  ),
  /** The business phone number's id (not the number itself); the channel is off without it. */
  WHATSAPP_PHONE_NUMBER_ID: optionalString,
  /** A system user's permanent access token. Never logged. */
  WHATSAPP_ACCESS_TOKEN: optionalString,
  /** The Meta app's secret: signs every webhook POST (`X-Hub-Signature-256`). */
  WHATSAPP_APP_SECRET: optionalString,
  /** What the webhook's GET verification must echo (`hub.verify_token`). */
  WHATSAPP_VERIFY_TOKEN: optionalString,
};

/**
 * Paths of the insurer's operations that differ from the contract table's (the 81 assumed ones):
 * a JSON object of operation name → path template, e.g. `{"getCorporates":"/clients/corporates"}`.
 */
const partnerApiPaths = z.preprocess(
  (value, ctx) => {
    if (typeof value !== 'string' || value.trim() === '') return {};
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a JSON object such as {"getCorporates":"/clients/corporates"}',
      });
      return z.NEVER;
    }
  },
  z.partialRecord(
    z.enum(operationNames as unknown as [OperationName, ...OperationName[]], {
      error: 'names an operation the contract table does not have',
    }),
    z.string().regex(/^\/\S*$/, 'a path template starting with /, such as /clients/{id}'),
  ),
);

/** Where Redis is (see {@link RedisTarget}): the configuration names it, the factory connects. */
type RedisConnection = RedisTarget;

/**
 * The environment insurechat reads, validated once at start-up. Every variable is optional: the
 * embedded defaults run the sandbox insurer, in-memory sessions and port 3000.
 */
/**
 * Default size of the insurer connection pool. Sized for the turn deadline: a call that queues for
 * a connection behind a slow one (an insurer answering in 2 s) misses the 4 s USSD deadline, so
 * the pool holds a call in flight for every caller the bench drives at once (200) with room to
 * spare. undici opens connections only as calls need them, so an idle pool costs nothing.
 */
export const DEFAULT_PARTNER_API_CONNECTIONS = 256;
/** How long a catalogue answer is held (PARTNER_CATALOGUE_TTL_MS): five minutes. */
const DEFAULT_PARTNER_CATALOGUE_TTL_MS = 300_000;

/**
 * A whole number from `min` to `max` (no upper bound when `max` is undefined), `fallback` when the
 * variable is unset or blank; `error` is every refusal's message.
 */
function wholeNumber(fallback: number, min: number, max: number | undefined, error: string) {
  const number = z.coerce.number({ error }).int({ error }).min(min, { error });
  return z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : value),
    max === undefined ? number : number.max(max, { error }),
  );
}

export const EnvSchema = z.object({
  PORT: wholeNumber(3000, 0, 65_535, 'must be a port number (0 to 65535)'),
  /**
   * Interface to bind. This machine only by default: the web simulator can speak as any phone
   * number. A container sets `0.0.0.0` so its port mapping works.
   */
  HOST: optionalString,
  REDIS_URL: optionalUrl,
  /** Comma-separated `host:port` of Redis Sentinels; instead of REDIS_URL, never with it. */
  REDIS_SENTINELS: commaList.pipe(z.array(HostPort)),
  REDIS_SENTINEL_NAME: optionalString,
  REDIS_SENTINEL_PASSWORD: optionalString,
  /** Comma-separated `host:port` of some Redis Cluster nodes; instead of REDIS_URL or Sentinels. */
  REDIS_CLUSTER_NODES: commaList.pipe(z.array(HostPort)),
  /** The password of the master (Sentinel) or of every node (Cluster); a REDIS_URL carries its own. */
  REDIS_PASSWORD: optionalString,
  PARTNER_API_URL: optionalUrl,
  PARTNER_API_KEY: optionalString,
  /** Operation name → path, for an insurer whose paths differ from the assumed ones. */
  PARTNER_API_PATHS: partnerApiPaths,
  /**
   * Keep-alive connections to the insurer. A USSD caller's turn waits for one call at a time, so
   * a slow insurer needs a connection per concurrent caller or calls queue past the deadline.
   */
  PARTNER_API_CONNECTIONS: wholeNumber(
    DEFAULT_PARTNER_API_CONNECTIONS,
    1,
    4096,
    'must be a whole number of connections (1 to 4096)',
  ),
  /**
   * How long the insurer's catalogue (products, risk categories, payment gateways) is held
   * before it is read again; 0 reads it on every use.
   */
  PARTNER_CATALOGUE_TTL_MS: wholeNumber(
    DEFAULT_PARTNER_CATALOGUE_TTL_MS,
    0,
    86_400_000,
    'must be a whole number of milliseconds (0 to 86400000)',
  ),
  USSD_GATEWAY_SECRET: optionalString,
  USSD_ALLOWED_IPS: commaList,
  /** The short code the simulator dials; gateways send their own. */
  USSD_SERVICE_CODE: z.preprocess(
    (value) => (value === undefined || value === '' ? '*384*4628#' : value),
    z.string().regex(/^[*#0-9]+$/, 'a short code of digits, * and #'),
  ),
  /** `false` skips the language screen on a phone's first dial (the menu's Language stays). */
  USSD_ASK_LANGUAGE: z.enum(['true', 'false']).default('true'),
  /**
   * Milliseconds between the `END` that lets a caller's call go once they chose mobile money and
   * the request to pay (the network's PIN prompt needs the handset free). Default 2000.
   */
  USSD_PAY_DELAY_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds (0 to 60000)' })
    .int({ error: 'must be a whole number of milliseconds (0 to 60000)' })
    .min(0, { error: 'must be a whole number of milliseconds (0 to 60000)' })
    .max(60_000, { error: 'must be a whole number of milliseconds (0 to 60000)' })
    .default(2_000),
  ...WhatsAppEnv,
  TELEGRAM_BOT_TOKEN: optionalString,
  TELEGRAM_WEBHOOK_SECRET: optionalString,
  /** Another Bot API server (a local `telegram-bot-api`, or telegram-test-api); default Telegram's. */
  TELEGRAM_API_ROOT: optionalUrl,
  SLACK_BOT_TOKEN: optionalString,
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString,
  /** Another Slack Web API base URL (ending in `/api/`), for a local emulator; default Slack's. */
  SLACK_API_URL: optionalUrl,
  SLACK_ALLOWED_USERS: commaList,
  /**
   * The Slack channel (its id, `C…` or `G…`) where a customer's "Talk to a person" opens a
   * thread; unset: the menu item says no one is available. Needs SLACK_BOT_TOKEN.
   */
  SLACK_HANDOFF_CHANNEL: optionalSlackChannel,
  /** Workspace (team) ids whose users may use the desk; empty means any workspace. */
  SLACK_ALLOWED_TEAMS: commaList,
  /** Channel id (`C…`) the staff's morning digest is posted to; unset: no digest. */
  SLACK_DIGEST_CHANNEL: optionalSlackChannel,
  /**
   * Slack user ids (`U…`/`W…`) of the desk's admins, who may read the audit of staff look-ups
   * (`/insure audit`); each must also be in SLACK_ALLOWED_USERS. Empty: nobody reads it.
   */
  SLACK_AUDIT_ADMINS: commaList.pipe(
    z.array(z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack user id such as U012AB3CD')),
  ),
  PAYMENT_CALLBACK_SECRET: optionalString,
  /** Addresses the insurer's payment callback may come from; empty means any. */
  PAYMENT_CALLBACK_ALLOWED_IPS: commaList,
  /** The data controller the privacy notice names (Data Protection Act No. 3 of 2021). */
  PRIVACY_CONTROLLER: optionalString.pipe(z.string().max(120).optional()),
  /** How customers reach the controller's data protection officer (an address or phone). */
  PRIVACY_CONTACT: optionalString.pipe(z.string().max(80).optional()),
  SMS_API_URL: optionalUrl,
  SMS_API_KEY: optionalString,
  SMS_USERNAME: optionalString,
  SMS_FROM: optionalString,
  FILES_DIR: optionalString,
  /**
   * `s3://bucket/prefix`: files in an S3-compatible bucket, shared by every instance (instead of
   * FILES_DIR); unset: local disk.
   */
  FILES_URL: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z
      .string()
      .trim()
      .refine((value) => parseS3Url(value) !== undefined, {
        error: 'must be s3://<bucket>/<optional prefix>',
      })
      .optional(),
  ),
  /** The S3-compatible server's URL (MinIO, Ceph, R2…); unset: AWS S3 itself. */
  FILES_S3_ENDPOINT: optionalUrl,
  FILES_S3_REGION: optionalString,
  /** With FILES_S3_SECRET_ACCESS_KEY; both unset: the SDK's own chain (environment, role). */
  FILES_S3_ACCESS_KEY_ID: optionalString,
  FILES_S3_SECRET_ACCESS_KEY: optionalString,
  /** `true`: the bucket in the path (`host/bucket/key`), as most self-hosted servers need. */
  FILES_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  FILES_SIGNING_SECRET: optionalString,
  /** Days a claim's documents outlive its last seen change once the insurer drops the claim. */
  FILES_CLAIM_RETENTION_DAYS: wholeNumber(
    365,
    1,
    3650,
    'must be a whole number of days (1 to 3650)',
  ),
  /**
   * HMAC key of the staff audit's hash chain: every entry's MAC, so `/insure audit verify` can
   * tell a deleted or edited look-up. The same on every instance, and kept: a new key makes the
   * entries already written fail verification.
   */
  AUDIT_SECRET: optionalSecret,
  LOG_LEVEL: z.preprocess(
    (value) => (value === undefined || value === '' ? 'info' : value),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  ),
  PUBLIC_URL: optionalUrl,
  /**
   * Which proxies may set X-Forwarded-For (fastify `trustProxy`): `true` or comma-separated
   * addresses/CIDRs. Unset trusts none, so the USSD allow-list sees the socket's address.
   */
  TRUST_PROXY: optionalString,
  /** Most files one claim takes, over every channel together (the documents page, WhatsApp, Telegram). */
  CLAIM_MAX_FILES: wholeNumber(
    CLAIM_MAX_FILES,
    1,
    1000,
    'must be a whole number of files (1 to 1000)',
  ),
  /** Most bytes one claim takes, over every channel together; 50 MB (52428800) by default. */
  CLAIM_MAX_BYTES: wholeNumber(
    CLAIM_MAX_BYTES,
    1,
    undefined,
    'must be a whole number of bytes (at least 1)',
  ),
  /** How often SMS, codes, payment prompts and look-ups may be asked for (see the Limits docs). */
  ...LimitsEnv,
  NODE_ENV: z.preprocess(
    (value) => (value === undefined || value === '' ? 'development' : value),
    z.enum(['development', 'test', 'production']),
  ),
});
/** The validated environment, variable by variable. */
export type Env = z.infer<typeof EnvSchema>;

/** What the server runs with: the environment in shape, secrets filled in. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: Env['NODE_ENV'];
  readonly logLevel: Env['LOG_LEVEL'];
  /** Where the outside world reaches this server (webhooks, signed file URLs); local URL if unset. */
  readonly publicUrl: string | undefined;
  /** fastify `trustProxy`: false unless TRUST_PROXY names the proxies in front of us. */
  readonly trustProxy: boolean | string;
  /** What one claim takes over every channel (CLAIM_MAX_FILES, CLAIM_MAX_BYTES). */
  readonly claimFiles: { readonly maxFiles: number; readonly maxBytes: number };
  /** Per caller and per target, per hour and per day (the LIMIT_ variables). */
  readonly limits: LimitsConfig;
  /** Unset → in-memory sessions. */
  readonly redis: RedisConnection | undefined;
  /** Unset URL → the embedded sandbox insurer. */
  readonly partnerApi: {
    readonly url: string | undefined;
    readonly apiKey: string | undefined;
    /** Keep-alive connections to the insurer (PARTNER_API_CONNECTIONS). */
    readonly connections: number;
    /** Paths that differ from the contract table's (PARTNER_API_PATHS). */
    readonly pathOverrides: Partial<Record<OperationName, string>>;
    /** How long a catalogue answer is held (PARTNER_CATALOGUE_TTL_MS); 0 holds none. */
    readonly catalogueTtlMs: number;
  };
  readonly ussd: {
    readonly gatewaySecret: string;
    readonly allowedIps: readonly string[];
    readonly serviceCode: string;
    /** Whether a phone's first dial asks for the language (USSD_ASK_LANGUAGE, default true). */
    readonly askLanguage: boolean;
    /** How long after the `END` before a mobile-money prompt the payment starts (USSD_PAY_DELAY_MS). */
    readonly payDelayMs: number;
  };
  /** Present when the four WHATSAPP_ variables are set. */
  readonly whatsapp: WhatsAppConfig | undefined;
  /** Present when `TELEGRAM_BOT_TOKEN` is set. */
  readonly telegram:
    | {
        readonly botToken: string;
        readonly webhookSecret: string;
        /** Bot API server; undefined: Telegram's own. */
        readonly apiRoot: string | undefined;
      }
    | undefined;
  /** Present when `SLACK_BOT_TOKEN` is set. */
  readonly slack:
    | {
        readonly botToken: string;
        readonly signingSecret: string | undefined;
        readonly appToken: string | undefined;
        readonly allowedUsers: readonly string[];
        /** Empty: any workspace. */
        readonly allowedTeams: readonly string[];
        /** Web API base URL; undefined: Slack's own. */
        readonly apiUrl: string | undefined;
        /** Channel id where handoffs open threads; undefined: no handoffs. */
        readonly handoffChannel: string | undefined;
        /** Where the morning digest goes (SLACK_DIGEST_CHANNEL); undefined: no digest. */
        readonly digestChannel: string | undefined;
        /** Who may read the audit of staff look-ups (SLACK_AUDIT_ADMINS); empty: nobody. */
        readonly auditAdmins: readonly string[];
      }
    | undefined;
  readonly payments: {
    readonly callbackSecret: string;
    /** Empty: any source address. */
    readonly callbackAllowedIps: readonly string[];
  };
  /** Who the full privacy notice names; unset: the sandbox's names. */
  readonly privacy: { readonly controller: string; readonly contact: string };
  /** Unset URL → the embedded sandbox's SMS endpoint. */
  readonly sms: {
    readonly url: string | undefined;
    readonly apiKey: string | undefined;
    readonly username: string;
    readonly from: string | undefined;
  };
  readonly files: {
    readonly dir: string | undefined;
    /** Set with FILES_URL: the bucket files go to instead of `dir`. */
    readonly s3: S3Location | undefined;
    readonly signingSecret: string;
    /** How long a claim's files outlive its last seen change once unreported, in ms. */
    readonly claimRetentionMs: number;
  };
  /** The staff audit's hash chain key (AUDIT_SECRET). */
  readonly audit: { readonly secret: string };
}

/** One problem with one variable. */
export interface ConfigIssue {
  readonly variable: string;
  readonly message: string;
}

/** Raised when the environment cannot start the server; the message names every variable. */
export class ConfigError extends CodedError<'CONFIG_INVALID'> {
  override readonly name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], options?: { cause?: unknown }) {
    super(
      'CONFIG_INVALID',
      `Configuration is invalid:\n${issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join('\n')}`,
      options,
    );
    this.issues = issues;
  }
}

/** The result of {@link loadConfig}: the config and which secrets were made up for this run. */
export interface LoadedConfig {
  readonly config: Config;
  /** Variables that were unset and got a random value; printed once for local use. */
  readonly generated: readonly { readonly variable: string; readonly value: string }[];
}

function generateSecret(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Validates the environment and fills in defaults. Unset secrets are generated (outside
 * production); with `NODE_ENV=production` each enabled channel's secret must be set.
 * Throws {@link ConfigError}; never includes a secret's value in the message.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
): LoadedConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? 'environment'),
        message: issue.message,
      })),
      { cause: parsed.error },
    );
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const telegramToken = e.TELEGRAM_BOT_TOKEN;
  const slackToken = e.SLACK_BOT_TOKEN;
  const telegramOn = telegramToken !== undefined;
  const slackOn = slackToken !== undefined;

  const missing: ConfigIssue[] = [];
  const required = (variable: keyof Env, why: string): void => {
    if (e[variable] === undefined) missing.push({ variable, message: `must be set ${why}` });
  };
  if (production) {
    const inProduction = 'when NODE_ENV=production';
    required('USSD_GATEWAY_SECRET', inProduction);
    required('PAYMENT_CALLBACK_SECRET', inProduction);
    required('FILES_SIGNING_SECRET', `${inProduction} (signed file URLs must survive restarts)`);
    if (telegramOn)
      required('TELEGRAM_WEBHOOK_SECRET', `${inProduction} and TELEGRAM_BOT_TOKEN is set`);
    // Staff look up people through the Slack desk only; its audit must verify after a restart.
    if (slackOn) required('AUDIT_SECRET', `${inProduction} and SLACK_BOT_TOKEN is set`);
  }
  if (slackOn && e.SLACK_APP_TOKEN === undefined) {
    // Slack issues the signing secret; one made up here could never verify a request.
    required('SLACK_SIGNING_SECRET', 'when SLACK_BOT_TOKEN is set without SLACK_APP_TOKEN');
  }
  if (e.SLACK_HANDOFF_CHANNEL !== undefined && !slackOn) {
    missing.push({ variable: 'SLACK_HANDOFF_CHANNEL', message: 'needs SLACK_BOT_TOKEN' });
  }
  const outsideDesk = e.SLACK_AUDIT_ADMINS.filter((id) => !e.SLACK_ALLOWED_USERS.includes(id));
  if (outsideDesk.length > 0) {
    // An admin must be able to use the desk at all: the allow-list runs before the audit.
    missing.push({
      variable: 'SLACK_AUDIT_ADMINS',
      message: `names users not in SLACK_ALLOWED_USERS: ${outsideDesk.join(', ')}`,
    });
  }
  if (e.PARTNER_API_URL !== undefined) required('PARTNER_API_KEY', 'when PARTNER_API_URL is set');
  missing.push(...redisIssues(e));
  if (e.SMS_API_URL !== undefined) required('SMS_API_KEY', 'when SMS_API_URL is set');
  missing.push(...filesIssues(e));
  const whatsapp = whatsappConfigOf(e);
  for (const variable of whatsapp.missing)
    missing.push({ variable, message: 'must be set with the other WHATSAPP_ variables' });
  if (missing.length > 0) throw new ConfigError(missing);

  const generated: { variable: string; value: string }[] = [];
  const secret = (variable: keyof Env, value: string | undefined): string => {
    if (value !== undefined) return value;
    const made = generateSecret();
    generated.push({ variable, value: made });
    return made;
  };

  const config: Config = {
    port: e.PORT,
    host: e.HOST ?? '127.0.0.1',
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    claimFiles: { maxFiles: e.CLAIM_MAX_FILES, maxBytes: e.CLAIM_MAX_BYTES },
    limits: limitsConfigOf(e),
    redis: redisConnection(e),
    partnerApi: {
      url: e.PARTNER_API_URL,
      apiKey: e.PARTNER_API_KEY,
      connections: e.PARTNER_API_CONNECTIONS,
      pathOverrides: e.PARTNER_API_PATHS,
      catalogueTtlMs: e.PARTNER_CATALOGUE_TTL_MS,
    },
    ussd: {
      gatewaySecret: secret('USSD_GATEWAY_SECRET', e.USSD_GATEWAY_SECRET),
      allowedIps: e.USSD_ALLOWED_IPS,
      serviceCode: e.USSD_SERVICE_CODE,
      askLanguage: e.USSD_ASK_LANGUAGE === 'true',
      payDelayMs: e.USSD_PAY_DELAY_MS,
    },
    whatsapp: whatsapp.config,
    telegram:
      telegramToken !== undefined
        ? {
            botToken: telegramToken,
            webhookSecret: secret('TELEGRAM_WEBHOOK_SECRET', e.TELEGRAM_WEBHOOK_SECRET),
            apiRoot: e.TELEGRAM_API_ROOT?.replace(/\/+$/, ''),
          }
        : undefined,
    slack:
      slackToken !== undefined
        ? {
            botToken: slackToken,
            signingSecret: e.SLACK_SIGNING_SECRET,
            appToken: e.SLACK_APP_TOKEN,
            allowedUsers: e.SLACK_ALLOWED_USERS,
            allowedTeams: e.SLACK_ALLOWED_TEAMS,
            // Slack's client joins method names onto this base: it must end in a slash.
            apiUrl: e.SLACK_API_URL?.replace(/\/*$/, '/'),
            handoffChannel: e.SLACK_HANDOFF_CHANNEL,
            digestChannel: e.SLACK_DIGEST_CHANNEL,
            auditAdmins: e.SLACK_AUDIT_ADMINS,
          }
        : undefined,
    payments: {
      callbackSecret: secret('PAYMENT_CALLBACK_SECRET', e.PAYMENT_CALLBACK_SECRET),
      callbackAllowedIps: e.PAYMENT_CALLBACK_ALLOWED_IPS,
    },
    privacy: {
      controller: e.PRIVACY_CONTROLLER ?? SANDBOX_PRIVACY_NOTICE.controller,
      contact: e.PRIVACY_CONTACT ?? SANDBOX_PRIVACY_NOTICE.contact,
    },
    sms: {
      url: e.SMS_API_URL,
      apiKey: e.SMS_API_KEY,
      username: e.SMS_USERNAME ?? 'sandbox',
      from: e.SMS_FROM,
    },
    files: {
      dir: e.FILES_DIR,
      s3: s3Location(e),
      signingSecret: secret('FILES_SIGNING_SECRET', e.FILES_SIGNING_SECRET),
      claimRetentionMs: e.FILES_CLAIM_RETENTION_DAYS * 86_400_000,
    },
    audit: { secret: secret('AUDIT_SECRET', e.AUDIT_SECRET) },
  };
  return { config, generated };
}

/** Files go to one place, and an S3 key pair comes whole. */
function filesIssues(e: Env): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (e.FILES_URL !== undefined && e.FILES_DIR !== undefined) {
    issues.push({ variable: 'FILES_URL', message: 'set FILES_URL or FILES_DIR, not both' });
  }
  if ((e.FILES_S3_ACCESS_KEY_ID === undefined) !== (e.FILES_S3_SECRET_ACCESS_KEY === undefined)) {
    issues.push({
      variable:
        e.FILES_S3_ACCESS_KEY_ID === undefined
          ? 'FILES_S3_ACCESS_KEY_ID'
          : 'FILES_S3_SECRET_ACCESS_KEY',
      message: 'must be set with FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY both',
    });
  }
  return issues;
}

/** The bucket FILES_URL names, with the FILES_S3_ settings; undefined without FILES_URL. */
function s3Location(e: Env): S3Location | undefined {
  const where = e.FILES_URL === undefined ? undefined : parseS3Url(e.FILES_URL);
  if (!where) return undefined;
  return {
    ...where,
    ...(e.FILES_S3_ENDPOINT ? { endpoint: e.FILES_S3_ENDPOINT } : {}),
    // An S3-compatible server seldom cares; AWS needs the bucket's own region.
    region: e.FILES_S3_REGION ?? 'us-east-1',
    ...(e.FILES_S3_ACCESS_KEY_ID && e.FILES_S3_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: e.FILES_S3_ACCESS_KEY_ID,
            secretAccessKey: e.FILES_S3_SECRET_ACCESS_KEY,
          },
        }
      : {}),
    forcePathStyle: e.FILES_S3_FORCE_PATH_STYLE === 'true',
  };
}

/** Redis is reached one way: REDIS_URL, REDIS_SENTINELS with the group name, or REDIS_CLUSTER_NODES. */
function redisIssues(e: Env): ConfigIssue[] {
  const sentinels = e.REDIS_SENTINELS.length > 0;
  const cluster = e.REDIS_CLUSTER_NODES.length > 0;
  const issues: ConfigIssue[] = [];
  const ways = [e.REDIS_URL !== undefined, sentinels, cluster].filter(Boolean).length;
  if (ways > 1) {
    issues.push({
      variable: cluster ? 'REDIS_CLUSTER_NODES' : 'REDIS_SENTINELS',
      message: 'set one of REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES',
    });
  }
  if (sentinels && e.REDIS_SENTINEL_NAME === undefined) {
    issues.push({
      variable: 'REDIS_SENTINEL_NAME',
      message: 'must be set when REDIS_SENTINELS is set',
    });
  }
  for (const variable of ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'] as const) {
    if (!sentinels && e[variable] !== undefined) {
      issues.push({ variable, message: 'only applies with REDIS_SENTINELS' });
    }
  }
  if (!sentinels && !cluster && e.REDIS_PASSWORD !== undefined) {
    issues.push({
      variable: 'REDIS_PASSWORD',
      message:
        'only applies with REDIS_SENTINELS or REDIS_CLUSTER_NODES (a REDIS_URL carries its own)',
    });
  }
  return issues;
}

/** The validated Redis variables as one connection; only called once {@link redisIssues} passed. */
function redisConnection(e: Env): RedisConnection | undefined {
  if (e.REDIS_CLUSTER_NODES.length > 0) {
    return {
      kind: 'cluster',
      nodes: e.REDIS_CLUSTER_NODES,
      ...(e.REDIS_PASSWORD === undefined ? {} : { password: e.REDIS_PASSWORD }),
    };
  }
  if (e.REDIS_SENTINELS.length > 0 && e.REDIS_SENTINEL_NAME !== undefined) {
    return {
      kind: 'sentinel',
      sentinels: e.REDIS_SENTINELS,
      name: e.REDIS_SENTINEL_NAME,
      ...(e.REDIS_SENTINEL_PASSWORD === undefined
        ? {}
        : { sentinelPassword: e.REDIS_SENTINEL_PASSWORD }),
      ...(e.REDIS_PASSWORD === undefined ? {} : { password: e.REDIS_PASSWORD }),
    };
  }
  return e.REDIS_URL === undefined ? undefined : { kind: 'url', url: e.REDIS_URL };
}

/** TRUST_PROXY as fastify takes it: a boolean, or a comma-separated list of addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}

const WHATSAPP_REQUIRED = [
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
] as const;

/**
 * WhatsApp's settings from the validated variables: undefined (the channel off) when none of
 * the four is set; the names of those missing when only some are (a half-configured channel
 * would accept webhooks it cannot answer, or answer ones it cannot verify).
 */
export function whatsappConfigOf(e: Pick<Env, keyof typeof WhatsAppEnv>): {
  readonly config: WhatsAppConfig | undefined;
  readonly missing: readonly string[];
} {
  const missing = WHATSAPP_REQUIRED.filter((name) => e[name] === undefined);
  if (missing.length === WHATSAPP_REQUIRED.length) return { config: undefined, missing: [] };
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
