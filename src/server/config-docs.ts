import { LIMIT_KINDS, type LimitKind, limitVariable } from '../limits/index.js';
import { SANDBOX_PRIVACY_NOTICE } from '../privacy/index.js';
import { type Env, EnvSchema } from './config.js';

// The configuration page, docs/configuration.md, is generated from the environment schema so it
// cannot drift from what the server reads: every variable of `EnvSchema` is a row, its default is
// the schema's own when the schema has one, and this file only adds the words. A variable added to
// the schema without a line here fails the type check; `npm run docs:config` writes the page and
// test/server/config-docs.test.ts fails when the committed page differs.

/** What the configuration page says of one variable. */
interface VariableDoc {
  /** What it does. */
  readonly what: string;
  /** What leaving it unset means; only for a variable the schema gives no value of its own. */
  readonly unset?: string;
  /** Said after the schema's own default, e.g. `(50 MB)`. */
  readonly aside?: string;
}

/** The limits' variables, described from their names (kind, scope, window). */
type LimitVariable = Extract<keyof Env, `LIMIT_${string}`>;

/** The words for every variable but the limits', in the page's order. */
export const VARIABLE_DOCS = {
  PORT: {
    what: 'HTTP port (`0` picks a free one)',
  },
  HOST: {
    what: 'interface to bind: this machine only by default (the simulator speaks as any number); `0.0.0.0` opens it',
    unset: '`127.0.0.1`',
  },
  TRUST_PROXY: {
    what: 'proxies allowed to set `X-Forwarded-For`: `true` or addresses/CIDRs (the USSD allow-list uses the client address)',
    unset: 'none',
  },
  PUBLIC_URL: {
    what: 'how the outside world reaches this server (webhooks, signed file URLs)',
    unset: '`http://127.0.0.1:<PORT>`',
  },
  NODE_ENV: {
    what: '`production` requires the secrets below and hides the simulator',
  },
  LOG_LEVEL: {
    what: 'pino level (`fatal` … `trace`, `silent`)',
  },
  REDIS_URL: {
    what: 'Redis for sessions, USSD state, payment tracking (needed for push)',
    unset: 'unset: sessions in memory',
  },
  REDIS_SENTINELS: {
    what: 'comma-separated Sentinel `host:port` list; replaces `REDIS_URL` (set one or the other, not both)',
    unset: 'unset: use `REDIS_URL`',
  },
  REDIS_SENTINEL_NAME: {
    what: 'the master group the Sentinels monitor (required with `REDIS_SENTINELS`)',
    unset: '—',
  },
  REDIS_SENTINEL_PASSWORD: {
    what: 'password of the Sentinels themselves (only with `REDIS_SENTINELS`)',
    unset: 'none',
  },
  REDIS_PASSWORD: {
    what: "password of the Sentinels' master and replicas, or of every Cluster node (not with `REDIS_URL`)",
    unset: 'none',
  },
  REDIS_CLUSTER_NODES: {
    what: 'comma-separated `host:port` of some Redis Cluster nodes; replaces `REDIS_URL` (set one way to Redis only)',
    unset: 'unset: use `REDIS_URL`',
  },
  PARTNER_API_URL: {
    what: "the insurer's base URL including `/api/v1`",
    unset: 'unset: embedded sandbox insurer',
  },
  PARTNER_API_KEY: {
    what: 'bearer key for the insurer (required with `PARTNER_API_URL`)',
    unset: "the sandbox's key",
  },
  PARTNER_API_CONNECTIONS: {
    what: 'keep-alive connections to the insurer; one per caller waiting on a call at once (a slow insurer needs them all)',
  },
  PARTNER_API_PATHS: {
    what: "JSON object, operation name → path, for an insurer whose paths differ from the assumed ones (see [The insurer's API](insurer-api.md#assumed-paths-and-changing-them-without-code))",
    unset: "none: the contract table's paths",
  },
  PARTNER_CATALOGUE_TTL_MS: {
    what: "how long the insurer's catalogue (motor products, risk categories, payment gateways) is held before it is read again; `0` reads it on every use. A product the insurer withdraws can be offered for this long, and its pricing call then fails as any refusal does",
  },
  USSD_GATEWAY_SECRET: {
    what: 'shared secret of the USSD gateway (required in production)',
    unset: 'generated and printed',
  },
  USSD_ALLOWED_IPS: {
    what: 'comma-separated gateway addresses',
    unset: 'any',
  },
  USSD_ASK_LANGUAGE: {
    what: "`false`: no language screen on a phone's first dial (the menu's Language stays)",
  },
  USSD_SERVICE_CODE: {
    what: 'the short code the simulator shows',
  },
  USSD_PAY_DELAY_MS: {
    what: 'ms between the `END` that lets a caller go after choosing mobile money and the request to pay (the PIN prompt)',
  },
  TELEGRAM_BOT_TOKEN: {
    what: 'turns Telegram on',
    unset: 'unset: Telegram off',
  },
  TELEGRAM_WEBHOOK_SECRET: {
    what: "Telegram's `secret_token` (required in production with Telegram on)",
    unset: 'generated and printed',
  },
  TELEGRAM_API_ROOT: {
    what: 'another Bot API server: a local `telegram-bot-api`, or telegram-test-api offline',
    unset: "Telegram's",
  },
  WHATSAPP_PHONE_NUMBER_ID: {
    what: "the business number's id in WhatsApp Manager; with the next three, turns WhatsApp on (all four or none)",
    unset: 'unset: WhatsApp off',
  },
  WHATSAPP_ACCESS_TOKEN: {
    what: "a system user's permanent token with `whatsapp_business_messaging`",
    unset: '—',
  },
  WHATSAPP_APP_SECRET: {
    what: "the Meta app's secret: every webhook POST must carry its HMAC (`X-Hub-Signature-256`)",
    unset: '—',
  },
  WHATSAPP_VERIFY_TOKEN: {
    what: "any string you choose; Meta's subscription check must echo it",
    unset: '—',
  },
  WHATSAPP_API_URL: {
    what: 'the Graph API root with its version; tests point it at a local Graph API',
  },
  SLACK_BOT_TOKEN: {
    what: 'turns the Slack staff desk on',
    unset: 'unset: Slack off',
  },
  SLACK_SIGNING_SECRET: {
    what: "verifies Slack's HTTP requests (required in production in HTTP mode)",
    unset: '—',
  },
  SLACK_APP_TOKEN: {
    what: 'Socket Mode',
    unset: 'unset: HTTP mode',
  },
  SLACK_API_URL: {
    what: 'another Slack Web API base URL (`http://127.0.0.1:4000/api/`), for a local emulator',
    unset: "Slack's",
  },
  SLACK_ALLOWED_USERS: {
    what: 'comma-separated Slack user ids allowed to use the desk',
    unset: 'none',
  },
  SLACK_ALLOWED_TEAMS: {
    what: 'comma-separated Slack workspace (team) ids whose allow-listed users may use the desk',
    unset: 'any workspace',
  },
  SLACK_HANDOFF_CHANNEL: {
    what: 'Slack channel id (`C…`/`G…`) where "Talk to a person" opens a thread (needs `SLACK_BOT_TOKEN`)',
    unset: 'unset: no one takes handoffs',
  },
  SLACK_DIGEST_CHANNEL: {
    what: "Slack channel id (`C…`) the staff's morning digest is posted to, once a day from 07:00 Lusaka time",
    unset: 'unset: no digest',
  },
  SLACK_AUDIT_ADMINS: {
    what: 'comma-separated Slack user ids (each also in `SLACK_ALLOWED_USERS`) who may read `/insure audit`',
    unset: 'none',
  },
  AUDIT_SECRET: {
    what: "HMAC key of the staff audit's hash chain, 16+ characters (required in production with Slack on; same on every instance, and kept: a new key fails the entries already written)",
    unset: 'generated (shown in a terminal)',
  },
  PAYMENT_CALLBACK_SECRET: {
    what: 'last path segment of the payment webhook URL (required in production)',
    unset: 'generated and printed',
  },
  PAYMENT_CALLBACK_ALLOWED_IPS: {
    what: 'comma-separated addresses the payment webhook may come from (after `TRUST_PROXY`); others get 403',
    unset: 'any',
  },
  PRIVACY_CONTROLLER: {
    what: 'the data controller the full privacy notice names (at most 120 characters)',
    unset: `\`${SANDBOX_PRIVACY_NOTICE.controller}\``,
  },
  PRIVACY_CONTACT: {
    what: "how customers reach the controller's data protection officer, named in the notice (at most 80 characters)",
    unset: `\`${SANDBOX_PRIVACY_NOTICE.contact}\``,
  },
  SMS_API_URL: {
    what: "Africa's Talking messaging endpoint (full URL)",
    unset: "the sandbox's `/version1/messaging`",
  },
  SMS_API_KEY: {
    what: "Africa's Talking `apiKey` (required with `SMS_API_URL`)",
    unset: "the sandbox's key",
  },
  SMS_USERNAME: {
    what: "Africa's Talking username",
    unset: '`sandbox`',
  },
  SMS_FROM: {
    what: 'sender id or short code',
    unset: 'provider default',
  },
  CLAIM_MAX_FILES: {
    what: 'most files one claim takes, over every channel and instance together',
  },
  CLAIM_MAX_BYTES: {
    what: 'most bytes one claim takes, over every channel and instance together',
    aside: '(50 MB)',
  },
  FILES_DIR: {
    what: 'where uploaded claim documents are kept (one host; not with `FILES_URL`)',
    unset: 'a temporary folder',
  },
  FILES_URL: {
    what: '`s3://<bucket>/<prefix>`: files, owner markers and claim records in an S3-compatible bucket every instance shares',
    unset: 'unset: local disk (`FILES_DIR`)',
  },
  FILES_S3_ENDPOINT: {
    what: "the S3-compatible server's URL (MinIO, Ceph, Cloudflare R2, …)",
    unset: 'AWS S3',
  },
  FILES_S3_REGION: {
    what: "the bucket's region",
    unset: '`us-east-1`',
  },
  FILES_S3_ACCESS_KEY_ID: {
    what: 'access key of the bucket (with `FILES_S3_SECRET_ACCESS_KEY`, both or neither)',
    unset: "the AWS SDK's chain (env, role)",
  },
  FILES_S3_SECRET_ACCESS_KEY: {
    what: 'its secret (never logged)',
    unset: '—',
  },
  FILES_S3_FORCE_PATH_STYLE: {
    what: '`true`: bucket in the path (`host/bucket/key`), as most self-hosted servers need',
    unset: '`false`',
  },
  FILES_CLAIM_RETENTION_DAYS: {
    what: "days a claim's documents are kept after the insurer stops reporting the claim, from its last seen status change",
  },
  FILES_SIGNING_SECRET: {
    what: 'HMAC key of signed file URLs (required in production; same on every instance)',
    unset: 'generated and printed',
  },
} as const satisfies Record<Exclude<keyof Env, LimitVariable>, VariableDoc>;

const LIMITS_LINK =
  '[Limits](privacy-and-limits.md#limits-how-often-anything-that-costs-or-reaches-a-person-may-be-asked-for)';

/** The words for each `LIMIT_` variable, from the kind, scope and window it counts. */
function limitDocs(): Record<string, VariableDoc> {
  const docs: Record<string, VariableDoc> = {};
  const windows = { hour: 'an hour', day: 'a day' } as const;
  const scopes = { caller: 'from one caller', target: 'to or about one target' } as const;
  for (const kind of LIMIT_KINDS as readonly LimitKind[]) {
    for (const scope of ['caller', 'target'] as const) {
      for (const window of ['hour', 'day'] as const) {
        docs[limitVariable(kind, scope, window)] = {
          what: `most \`${kind}\` ${scopes[scope]} in ${windows[window]}; \`0\`: no limit (${LIMITS_LINK})`,
        };
      }
    }
  }
  for (const window of ['hour', 'day'] as const) {
    docs[limitVariable('anonymous', undefined, window)] = {
      what: `most of each kind from a chat nobody vouches for, in ${windows[window]}; \`0\`: no cap (${LIMITS_LINK})`,
    };
  }
  return docs;
}

/** A schema field, as far as the page needs it: what it makes of an unset variable. */
interface Field {
  safeParse(value: unknown): { readonly success: boolean; readonly data?: unknown };
}

/** The schema's own value for an unset variable, or undefined when it leaves it unset. */
export function schemaDefault(field: Field): string | undefined {
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.length === 0) return undefined;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) {
    return undefined;
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

const INTRO = [
  '# Configuration',
  '',
  'Generated by `npm run docs:config` from the environment schema (`EnvSchema` in',
  '`src/server/config.ts`) and the words in `src/server/config-docs.ts`; do not edit by hand',
  '(`test/server/config-docs.test.ts` fails when this page differs from what they generate).',
  '',
  'Every variable is optional; the defaults run everything locally. Variables are checked at start:',
  'a bad value stops the server with a message naming the variable. Secrets are never logged: an',
  'unset secret is generated for the run (outside production, where the ones marked required must be',
  "set), and the start-up banner shows its value, and the embedded sandbox's key, only when standard",
  'output is a terminal. Anywhere else (a container, a pipe to a log store) standard output is the log',
  "stream, so the banner names the generated variables without their values. The log's redaction",
  "(`src/log`) censors the configuration's secret fields by name at the top of a line (`signingSecret`,",
  '`botToken`, `webhookSecret`, `callbackUrl`…) and, in nested objects (errors, bodies, `config`, `env`),',
  'every key that names a secret (`…secret`, `…token`, `password`, `api key`, `authorization`,',
  '`signature`).',
  '',
  'The sandbox insurer run on its own (`npm run sandbox`) reads its own `SANDBOX_` variables: see',
  '[sandbox.md](sandbox.md#running-it-alone).',
  '',
];

/**
 * The configuration page: one row per variable of `schema`, the default the schema's own or the
 * words' `unset`. Throws when a variable has no words, or words contradict the schema (an `unset`
 * where the schema has a default, none where it has not).
 */
export function configurationMarkdown(
  schema: { readonly shape: Readonly<Record<string, Field>> } = EnvSchema,
  docs: Readonly<Record<string, VariableDoc>> = { ...VARIABLE_DOCS, ...limitDocs() },
): string {
  const names = Object.keys(schema.shape);
  const problems: string[] = [];
  for (const name of names) if (docs[name] === undefined) problems.push(`${name}: no words`);
  for (const name of Object.keys(docs)) {
    if (!names.includes(name)) problems.push(`${name}: not in the schema`);
  }
  // The page's order: the words' order, which groups the variables by what they serve.
  const ordered = Object.keys(docs).filter((name) => names.includes(name));
  const rows = ordered.map((name) => {
    const doc = docs[name] as VariableDoc;
    const own = schemaDefault(schema.shape[name] as Field);
    if (own !== undefined && doc.unset !== undefined) {
      problems.push(`${name}: the schema's default is ${own}, the words say ${doc.unset}`);
    }
    if (own === undefined && doc.unset === undefined) {
      problems.push(`${name}: the schema has no default and the words say nothing of unset`);
    }
    const shown =
      own !== undefined
        ? `\`${own}\`${doc.aside === undefined ? '' : ` ${doc.aside}`}`
        : (doc.unset ?? '');
    return `| \`${name}\` | ${cell(shown)} | ${cell(doc.what)} |`;
  });
  if (problems.length > 0) {
    throw new Error(`The configuration page cannot be generated:\n  ${problems.join('\n  ')}`);
  }
  return [
    ...INTRO,
    `${ordered.length} variables.`,
    '',
    '| variable | default | what |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
