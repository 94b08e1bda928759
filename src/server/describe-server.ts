import type { Config } from './config.js';
import type { ServerInfo } from './create-server.js';

/**
 * The start-up banner: what runs and where (simulator, sandbox, channels, sessions), and the
 * secrets generated for this run so a local gateway or test can use them.
 */
export function describeServer(
  info: ServerInfo,
  config: Config,
  url: string,
  generated: readonly { readonly variable: string; readonly value: string }[],
): string {
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
      `  sandbox API key:  ${info.sandboxKey}  (curl -H "Authorization: Bearer ${info.sandboxKey}" ${info.sandboxUrl}/policies)`,
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
  if (generated.length > 0) {
    lines.push('', 'Generated for this run (set them to keep them across restarts):');
    for (const { variable, value } of generated) lines.push(`  ${variable}=${value}`);
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
