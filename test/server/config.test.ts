import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';

describe('loadConfig', () => {
  it('starts on the embedded defaults with an empty environment', () => {
    const { config } = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.redis).toBeUndefined();
    expect(config.partnerApi.url).toBeUndefined();
    expect(config.telegram).toBeUndefined();
    expect(config.slack).toBeUndefined();
    expect(config.nodeEnv).toBe('development');
  });

  it('generates each unset secret and reports it for local use', () => {
    const { config, generated } = loadConfig({});
    const names = generated.map((entry) => entry.variable);
    expect(names).toEqual(
      expect.arrayContaining([
        'USSD_GATEWAY_SECRET',
        'PAYMENT_CALLBACK_SECRET',
        'FILES_SIGNING_SECRET',
      ]),
    );
    const ussd = generated.find((entry) => entry.variable === 'USSD_GATEWAY_SECRET');
    expect(ussd?.value).toBe(config.ussd.gatewaySecret);
    expect(config.ussd.gatewaySecret.length).toBeGreaterThanOrEqual(24);
  });

  it('keeps a secret that is set and does not report it as generated', () => {
    const { config, generated } = loadConfig({ USSD_GATEWAY_SECRET: 'from-env' });
    expect(config.ussd.gatewaySecret).toBe('from-env');
    expect(generated.map((entry) => entry.variable)).not.toContain('USSD_GATEWAY_SECRET');
  });

  it('turns a channel on only when its token is set', () => {
    const { config } = loadConfig({
      TELEGRAM_BOT_TOKEN: '123:abc',
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'slack-secret',
    });
    expect(config.telegram?.botToken).toBe('123:abc');
    expect(config.telegram?.webhookSecret).toBeTruthy();
    expect(config.slack?.botToken).toBe('xoxb-1');
  });

  it('reads lists separated by commas', () => {
    const { config } = loadConfig({
      USSD_ALLOWED_IPS: '10.0.0.1, 10.0.0.2,,',
      SLACK_BOT_TOKEN: 'x',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_ALLOWED_USERS: 'U1,U2',
    });
    expect(config.ussd.allowedIps).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(config.slack?.allowedUsers).toEqual(['U1', 'U2']);
  });

  it('treats an empty variable as unset', () => {
    const { config } = loadConfig({ PORT: '', REDIS_URL: '', PARTNER_API_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.redis).toBeUndefined();
  });

  it('names the variable when a value is malformed', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', REDIS_URL: 'not a url' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const issues = (error as ConfigError).issues.map((issue) => issue.variable);
      expect(issues).toEqual(expect.arrayContaining(['PORT', 'REDIS_URL']));
      expect((error as ConfigError).message).toContain('PORT');
      expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    }
  });

  it('refuses to start in production without the secrets of the enabled channels', () => {
    try {
      loadConfig({ NODE_ENV: 'production', TELEGRAM_BOT_TOKEN: '123:abc' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const names = (error as ConfigError).issues.map((issue) => issue.variable);
      expect(names).toEqual(
        expect.arrayContaining([
          'USSD_GATEWAY_SECRET',
          'PAYMENT_CALLBACK_SECRET',
          'FILES_SIGNING_SECRET',
          'TELEGRAM_WEBHOOK_SECRET',
        ]),
      );
    }
  });

  it('starts in production when every enabled channel has its secret, generating nothing', () => {
    const { generated } = loadConfig({
      NODE_ENV: 'production',
      USSD_GATEWAY_SECRET: 'a',
      PAYMENT_CALLBACK_SECRET: 'b',
      FILES_SIGNING_SECRET: 'c',
      SLACK_BOT_TOKEN: 'xoxb',
      SLACK_SIGNING_SECRET: 'd',
      AUDIT_SECRET: 'an-audit-secret-of-32-characters',
    });
    expect(generated).toEqual([]);
  });

  it('needs AUDIT_SECRET in production with the Slack desk on, and refuses a short one', () => {
    const production = {
      NODE_ENV: 'production',
      USSD_GATEWAY_SECRET: 'a',
      PAYMENT_CALLBACK_SECRET: 'b',
      FILES_SIGNING_SECRET: 'c',
      SLACK_BOT_TOKEN: 'xoxb',
      SLACK_SIGNING_SECRET: 'd',
    };
    expect(() => loadConfig(production)).toThrow(/AUDIT_SECRET: must be set/);
    expect(() => loadConfig({ ...production, AUDIT_SECRET: 'short' })).toThrow(
      /AUDIT_SECRET: must be at least 16 characters/,
    );
    expect(loadConfig({ AUDIT_SECRET: 'x'.repeat(16) }).config.audit.secret).toBe('x'.repeat(16));
    // Outside production an unset key is made up for the run, like the other secrets.
    const { config, generated } = loadConfig({});
    expect(generated).toContainEqual({ variable: 'AUDIT_SECRET', value: config.audit.secret });
  });

  it('never puts a secret value in its error message', () => {
    try {
      loadConfig({ USSD_GATEWAY_SECRET: 'hunter2-secret', PORT: '-1' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2-secret');
    }
  });

  it('refuses Slack over HTTP without the signing secret Slack issued, in any environment', () => {
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(/SLACK_SIGNING_SECRET/);
    expect(() =>
      loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }),
    ).not.toThrow();
  });

  it('sizes the insurer connection pool from PARTNER_API_CONNECTIONS, 256 when unset', () => {
    expect(loadConfig({}).config.partnerApi.connections).toBe(256);
    expect(loadConfig({ PARTNER_API_CONNECTIONS: '64' }).config.partnerApi.connections).toBe(64);
    for (const bad of ['0', '-3', '1.5', 'many', '5000']) {
      let issues: string[] = [];
      try {
        loadConfig({ PARTNER_API_CONNECTIONS: bad });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        issues = (error as ConfigError).issues.map((issue) => issue.variable);
      }
      expect(issues).toEqual(['PARTNER_API_CONNECTIONS']);
    }
  });

  it('holds the insurer catalogue for PARTNER_CATALOGUE_TTL_MS, five minutes when unset, 0 for none', () => {
    expect(loadConfig({}).config.partnerApi.catalogueTtlMs).toBe(300_000);
    expect(loadConfig({ PARTNER_CATALOGUE_TTL_MS: '0' }).config.partnerApi.catalogueTtlMs).toBe(0);
    for (const bad of ['-1', '1.5', 'soon', '86400001']) {
      let issues: string[] = [];
      try {
        loadConfig({ PARTNER_CATALOGUE_TTL_MS: bad });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        issues = (error as ConfigError).issues.map((issue) => issue.variable);
      }
      expect(issues).toEqual(['PARTNER_CATALOGUE_TTL_MS']);
    }
  });

  it('caps a claim at CLAIM_MAX_FILES files and CLAIM_MAX_BYTES bytes, 10 and 50 MB when unset', () => {
    expect(loadConfig({}).config.claimFiles).toEqual({ maxFiles: 10, maxBytes: 50 * 1024 * 1024 });
    expect(
      loadConfig({ CLAIM_MAX_FILES: '3', CLAIM_MAX_BYTES: '1048576' }).config.claimFiles,
    ).toEqual({ maxFiles: 3, maxBytes: 1_048_576 });
    for (const [variable, bad] of [
      ['CLAIM_MAX_FILES', '0'],
      ['CLAIM_MAX_FILES', '2.5'],
      ['CLAIM_MAX_FILES', 'ten'],
      ['CLAIM_MAX_BYTES', '-1'],
      ['CLAIM_MAX_BYTES', '50MB'],
    ] as const) {
      let issues: string[] = [];
      try {
        loadConfig({ [variable]: bad });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        issues = (error as ConfigError).issues.map((issue) => issue.variable);
      }
      expect(issues).toEqual([variable]);
    }
  });

  it('takes the paths of an insurer that differ from the assumed ones from PARTNER_API_PATHS', () => {
    expect(loadConfig({}).config.partnerApi.pathOverrides).toEqual({});
    expect(
      loadConfig({ PARTNER_API_PATHS: '{"getCorporates":"/clients/corporates"}' }).config.partnerApi
        .pathOverrides,
    ).toEqual({ getCorporates: '/clients/corporates' });
    for (const bad of ['{"noSuchOperation":"/x"}', '{"getCorporates":"clients"}', 'not json']) {
      expect(() => loadConfig({ PARTNER_API_PATHS: bad })).toThrow(/PARTNER_API_PATHS/);
    }
  });

  it('takes the handoff channel as a Slack channel id, only with the Slack bot token', () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'signing' };
    expect(
      loadConfig({ ...slack, SLACK_HANDOFF_CHANNEL: 'C0HANDOFF' }).config.slack?.handoffChannel,
    ).toBe('C0HANDOFF');
    expect(loadConfig(slack).config.slack?.handoffChannel).toBeUndefined();
    expect(() => loadConfig({ ...slack, SLACK_HANDOFF_CHANNEL: '#handoffs' })).toThrow(
      /SLACK_HANDOFF_CHANNEL: a Slack channel id/,
    );
    expect(() => loadConfig({ SLACK_HANDOFF_CHANNEL: 'C0HANDOFF' })).toThrow(
      /SLACK_HANDOFF_CHANNEL: needs SLACK_BOT_TOKEN/,
    );
  });

  it('takes the audit admins as Slack user ids already allowed on the desk (issue 29)', () => {
    const slack = {
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 'signing',
      SLACK_ALLOWED_USERS: 'U0ADMIN,U0STAFF',
    };
    expect(
      loadConfig({ ...slack, SLACK_AUDIT_ADMINS: 'U0ADMIN' }).config.slack?.auditAdmins,
    ).toEqual(['U0ADMIN']);
    expect(loadConfig(slack).config.slack?.auditAdmins).toEqual([]);
    expect(() => loadConfig({ ...slack, SLACK_AUDIT_ADMINS: '@admin' })).toThrow(
      /SLACK_AUDIT_ADMINS: a Slack user id/,
    );
    expect(() => loadConfig({ ...slack, SLACK_AUDIT_ADMINS: 'U0OUTSIDER' })).toThrow(
      /SLACK_AUDIT_ADMINS: names users not in SLACK_ALLOWED_USERS: U0OUTSIDER/,
    );
  });

  it('requires the partner API key when a partner API URL is set', () => {
    expect(() => loadConfig({ PARTNER_API_URL: 'https://insurer.example/api/v1' })).toThrow(
      /PARTNER_API_KEY/,
    );
  });

  it('reads the payment callback and Slack workspace allow-lists, empty meaning anyone', () => {
    const open = loadConfig({ SLACK_BOT_TOKEN: 'x', SLACK_APP_TOKEN: 'xapp-1' }).config;
    expect(open.payments.callbackAllowedIps).toEqual([]);
    expect(open.slack?.allowedTeams).toEqual([]);

    const { config } = loadConfig({
      PAYMENT_CALLBACK_ALLOWED_IPS: '203.0.113.7, 203.0.113.8',
      SLACK_BOT_TOKEN: 'x',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_ALLOWED_TEAMS: 'T1,T2',
    });
    expect(config.payments.callbackAllowedIps).toEqual(['203.0.113.7', '203.0.113.8']);
    expect(config.slack?.allowedTeams).toEqual(['T1', 'T2']);
  });
});

/** The variables loadConfig complained about, or [] when it accepted the environment. */
function rejected(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => issue.variable);
  }
}

describe('Redis configuration', () => {
  it('connects through Sentinels given as host:port, with the group name and passwords', () => {
    const { config } = loadConfig({
      REDIS_SENTINELS: 'sentinel-a:26379, [::1]:26380',
      REDIS_SENTINEL_NAME: 'insurechat',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_PASSWORD: 'master-secret',
    });
    expect(config.redis).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 'sentinel-a', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'insurechat',
      sentinelPassword: 'sentinel-secret',
      password: 'master-secret',
    });
  });

  it('connects to one URL when REDIS_URL is set', () => {
    const { config } = loadConfig({ REDIS_URL: 'redis://cache:6379/2' });
    expect(config.redis).toEqual({ kind: 'url', url: 'redis://cache:6379/2' });
  });

  it('refuses REDIS_URL and REDIS_SENTINELS together', () => {
    expect(
      rejected({
        REDIS_URL: 'redis://cache:6379',
        REDIS_SENTINELS: 'sentinel-a:26379',
        REDIS_SENTINEL_NAME: 'insurechat',
      }),
    ).toEqual(['REDIS_SENTINELS']);
  });

  it('requires the group name with REDIS_SENTINELS', () => {
    expect(rejected({ REDIS_SENTINELS: 'sentinel-a:26379' })).toEqual(['REDIS_SENTINEL_NAME']);
  });

  it.each(['sentinel-a', 'sentinel-a:port', 'sentinel-a:70000', ':26379'])(
    'names REDIS_SENTINELS when an entry is %j',
    (entry) => {
      expect(
        rejected({ REDIS_SENTINELS: `sentinel-b:26379,${entry}`, REDIS_SENTINEL_NAME: 'g' }),
      ).toEqual(['REDIS_SENTINELS']);
    },
  );

  it('refuses Sentinel settings without REDIS_SENTINELS rather than ignore them', () => {
    expect(
      rejected({ REDIS_URL: 'redis://cache:6379', REDIS_SENTINEL_NAME: 'insurechat' }),
    ).toEqual(['REDIS_SENTINEL_NAME']);
  });

  it("connects to a Cluster through the nodes given as host:port, with the nodes' password", () => {
    const { config } = loadConfig({
      REDIS_CLUSTER_NODES: 'redis-a:7000, redis-b:7001,[::1]:7002',
      REDIS_PASSWORD: 'node-secret',
    });
    expect(config.redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'redis-a', port: 7000 },
        { host: 'redis-b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      password: 'node-secret',
    });
  });

  it('refuses REDIS_CLUSTER_NODES together with REDIS_URL', () => {
    expect(
      rejected({ REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: 'redis-a:7000' }),
    ).toEqual(['REDIS_CLUSTER_NODES']);
  });

  it('names REDIS_CLUSTER_NODES when an entry is not host:port', () => {
    expect(rejected({ REDIS_CLUSTER_NODES: 'redis-a:7000,redis-b' })).toEqual([
      'REDIS_CLUSTER_NODES',
    ]);
  });

  it('refuses REDIS_PASSWORD with a REDIS_URL, which carries its own', () => {
    expect(rejected({ REDIS_URL: 'redis://cache:6379', REDIS_PASSWORD: 'x' })).toEqual([
      'REDIS_PASSWORD',
    ]);
  });
});

describe('File store configuration', () => {
  it('keeps files on local disk and claims a year by default', () => {
    const { config } = loadConfig({ FILES_DIR: '/var/lib/insurechat' });
    expect(config.files).toMatchObject({ dir: '/var/lib/insurechat', s3: undefined });
    expect(config.files.claimRetentionMs).toBe(365 * 86_400_000);
  });

  it('puts files in the S3-compatible bucket FILES_URL names, with its settings', () => {
    const { config } = loadConfig({
      FILES_URL: 's3://claims-bucket/insurechat/files/',
      FILES_S3_ENDPOINT: 'http://minio:9000',
      FILES_S3_REGION: 'af-south-1',
      FILES_S3_ACCESS_KEY_ID: 'key-id',
      FILES_S3_SECRET_ACCESS_KEY: 'key-secret',
      FILES_S3_FORCE_PATH_STYLE: 'true',
      FILES_CLAIM_RETENTION_DAYS: '730',
    });
    expect(config.files.s3).toEqual({
      bucket: 'claims-bucket',
      prefix: 'insurechat/files',
      endpoint: 'http://minio:9000',
      region: 'af-south-1',
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'key-secret' },
      forcePathStyle: true,
    });
    expect(config.files.claimRetentionMs).toBe(730 * 86_400_000);
    // Without keys the SDK's own chain (an instance role) is used; AWS's URLs by default.
    expect(loadConfig({ FILES_URL: 's3://claims-bucket' }).config.files.s3).toEqual({
      bucket: 'claims-bucket',
      prefix: '',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('names the variable of a malformed or half-set file store, never the secret', () => {
    expect(rejected({ FILES_URL: 'https://bucket.example/files' })).toEqual(['FILES_URL']);
    expect(rejected({ FILES_URL: 's3://b' })).toEqual(['FILES_URL']);
    expect(rejected({ FILES_URL: 's3://claims', FILES_DIR: '/data' })).toEqual(['FILES_URL']);
    expect(rejected({ FILES_CLAIM_RETENTION_DAYS: 'forever' })).toEqual([
      'FILES_CLAIM_RETENTION_DAYS',
    ]);
    expect(rejected({ FILES_S3_FORCE_PATH_STYLE: 'yes' })).toEqual(['FILES_S3_FORCE_PATH_STYLE']);
    try {
      loadConfig({ FILES_URL: 's3://claims', FILES_S3_SECRET_ACCESS_KEY: 'very-secret-key' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).issues.map((issue) => issue.variable)).toEqual([
        'FILES_S3_ACCESS_KEY_ID',
      ]);
      expect((error as Error).message).not.toContain('very-secret-key');
    }
  });
});
