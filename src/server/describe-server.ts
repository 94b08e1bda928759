import type { Config } from './config.js';
import type { ServerInfo } from './create-server.js';

/** Options of {@link describeServer}. */
export interface DescribeOptions {
  /**
   * Whether the secrets generated for this run (and the embedded sandbox's key) are shown: only
   * on a terminal. Elsewhere standard output is the log stream and the banner names them only.
   * Default false.
   */
  readonly showSecrets?: boolean;
}

/**
 * The start-up banner: what runs and where (simulator, sandbox, channels, sessions), and the
 * secrets generated for this run so a local gateway or test can use them (on a terminal only).
 */
export function describeServer(
  info: ServerInfo,
  config: Config,
  url: string,
  generated: readonly { readonly variable: string; readonly value: string }[],
  options: DescribeOptions = {},
): string {
  const showSecrets = options.showSecrets === true;
  const lines = [`insurechat is running at ${url}`];
  if (info.bound) {
    const everywhere = ['0.0.0.0', '::'].includes(info.bound.host);
    lines.push(
      `  listening on:     ${info.bound.host}:${info.bound.port} ${everywhere ? '(every interface: reachable from other machines)' : '(this machine only; HOST=0.0.0.0 opens it)'}`,
    );
  }
  if (info.channels.includes('web'))
    lines.push(`  USSD simulator:   ${url}/  (open it in a browser)`);
  lines.push(
    `  insurer:          ${info.sandboxUrl ? `embedded sandbox at ${info.sandboxUrl}` : (config.partnerApi.url ?? 'not configured')}`,
  );
  if (info.sandboxUrl && info.sandboxKey) {
    // So a user can see what the insurer recorded (policies, payments, claims) for themselves.
    lines.push(
      showSecrets
        ? `  sandbox API key:  ${info.sandboxKey}  (curl -H "Authorization: Bearer ${info.sandboxKey}" ${info.sandboxUrl}/policies)`
        : '  sandbox API key:  shown when started in a terminal',
    );
  }
  lines.push(`  sessions:         ${describeSessions(info, config)}`);
  lines.push(`  channels:         ${info.channels.join(', ')}`);
  lines.push(`  USSD gateway:     POST ${url}/ussd/africastalking, POST ${url}/ussd/hubtel`);
  if (info.channels.includes('telegram'))
    lines.push(`  Telegram webhook: POST ${url}/telegram/webhook`);
  if (info.channels.includes('slack'))
    lines.push(
      `  Slack:            ${config.slack?.appToken ? 'Socket Mode' : `POST ${url}/slack/events`}`,
    );
  lines.push(`  health:           ${url}/healthz  ${url}/readyz  ${url}/metrics`);
  if (generated.length > 0 && showSecrets) {
    lines.push('', 'Generated for this run (set them to keep them across restarts):');
    for (const { variable, value } of generated) lines.push(`  ${variable}=${value}`);
  } else if (generated.length > 0) {
    lines.push(
      '',
      `Generated for this run, values shown only in a terminal (set them to keep them): ${generated.map(({ variable }) => variable).join(', ')}`,
    );
  }
  return lines.join('\n');
}

/** Where sessions live: which Redis mode, or memory with how to change it. */
function describeSessions(info: ServerInfo, config: Config): string {
  if (info.sessions === 'memory') {
    return 'in memory (set REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES for Redis)';
  }
  switch (config.redis?.kind) {
    case 'cluster':
      return `Redis Cluster (seed nodes ${config.redis.nodes.map((n) => `${n.host}:${n.port}`).join(', ')})`;
    case 'sentinel':
      return `Redis through Sentinel (master group ${config.redis.name})`;
    default:
      return 'Redis';
  }
}
