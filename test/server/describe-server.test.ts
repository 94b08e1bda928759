import { describe, expect, it } from 'vitest';
import { describeServer, loadConfig, type ServerInfo } from '../../src/server/index.js';

function banner(env: Record<string, string>, sessions: ServerInfo['sessions']): string {
  const { config } = loadConfig(env);
  const info: ServerInfo = {
    url: 'http://127.0.0.1:3000',
    bound: undefined,
    sandboxUrl: undefined,
    channels: ['ussd'],
    sessions,
  };
  return describeServer(info, config, 'http://127.0.0.1:3000', []);
}

describe('the start-up banner', () => {
  it('names the Redis Cluster and its seed nodes when sessions live on one', () => {
    expect(banner({ REDIS_CLUSTER_NODES: 'redis-a:7000,redis-b:7001' }, 'redis')).toContain(
      'sessions:         Redis Cluster (seed nodes redis-a:7000, redis-b:7001)',
    );
  });

  it('names the Sentinel master group when sessions live behind Sentinels', () => {
    expect(
      banner({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'insurechat' }, 'redis'),
    ).toContain('sessions:         Redis through Sentinel (master group insurechat)');
  });

  it('says how to move sessions to Redis when they are in memory', () => {
    expect(banner({}, 'memory')).toContain(
      'in memory (set REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES for Redis)',
    );
  });

  it('prints the embedded sandbox’s URL and API key, so a user can read what the insurer recorded', () => {
    const { config } = loadConfig({});
    const info: ServerInfo = {
      url: 'http://127.0.0.1:3000',
      bound: undefined,
      sandboxUrl: 'http://127.0.0.1:4567/api/v1',
      sandboxKey: 'sbx_demo',
      channels: ['ussd'],
      sessions: 'memory',
    };
    const text = describeServer(info, config, 'http://127.0.0.1:3000', [], { showSecrets: true });
    expect(text).toContain('insurer:          embedded sandbox at http://127.0.0.1:4567/api/v1');
    expect(text).toContain(
      'sandbox API key:  sbx_demo  (curl -H "Authorization: Bearer sbx_demo" http://127.0.0.1:4567/api/v1/policies)',
    );
    // Off a terminal standard output is the log stream: the key and generated secrets stay out.
    const logged = describeServer(info, config, 'http://127.0.0.1:3000', [
      { variable: 'FILES_SIGNING_SECRET', value: 'generated-value' },
    ]);
    expect(logged).not.toContain('sbx_demo');
    expect(logged).not.toContain('generated-value');
    expect(logged).toContain('FILES_SIGNING_SECRET');
  });
});
