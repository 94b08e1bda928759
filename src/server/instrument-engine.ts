import type { ChannelName, TurnEngine } from '../conversation/turn-engine.js';
import type { Metrics } from './metrics.js';

/** The flow a Prompt belongs to, read from its message key's first segment (`motor.price` → `motor`). */
function flowOf(key: string): string {
  return key.split('.')[0] || 'unknown';
}

/** Wraps a TurnEngine so every turn counts toward `turns` and `turnLatency` for `channel`. */
export function instrumentEngine(
  engine: TurnEngine,
  channel: ChannelName,
  metrics: Metrics,
): TurnEngine {
  return {
    async handle(sessionKey, reply, options) {
      const started = process.hrtime.bigint();
      let flow = 'error';
      try {
        const prompt = await engine.handle(sessionKey, reply, options);
        flow = flowOf(prompt.key);
        return prompt;
      } finally {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        metrics.turns.inc({ channel, flow });
        metrics.turnLatency.observe({ channel, flow }, seconds);
      }
    },
  };
}
