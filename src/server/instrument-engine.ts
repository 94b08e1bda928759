import type { Prompt } from '../conversation/prompt.js';
import type { ChannelName, TurnEngine } from '../conversation/turn-engine.js';
import type { Metrics } from './metrics.js';

/** The flow a Prompt belongs to, read from its message key's first segment (`motor.price` → `motor`). */
function flowOf(key: string): string {
  // A slice, not `split`: every turn's answer passes here, and a split builds an array of parts.
  const dot = key.indexOf('.');
  return (dot === -1 ? key : key.slice(0, dot)) || 'unknown';
}

/** Wraps a TurnEngine so every turn counts toward `turns` and `turnLatency` for `channel`. */
export function instrumentEngine(
  engine: TurnEngine,
  channel: ChannelName,
  metrics: Metrics,
): TurnEngine {
  // The labelled series of each flow, looked up once: prom-client hashes the labels otherwise.
  const series = new Map<string, { count(): void; observe(seconds: number): void }>();
  const seriesOf = (flow: string) => {
    let found = series.get(flow);
    if (!found) {
      const turns = metrics.turns.labels({ channel, flow });
      const latency = metrics.turnLatency.labels({ channel, flow });
      found = { count: () => turns.inc(), observe: (seconds) => latency.observe(seconds) };
      // Flows are a handful of ids (and `error`); the bound only guards against a surprise.
      if (series.size < 100) series.set(flow, found);
    }
    return found;
  };
  const record = (flow: string, startedAt: number) => {
    const found = seriesOf(flow);
    found.count();
    found.observe((performance.now() - startedAt) / 1e3);
  };
  const timed = (work: Promise<Prompt>): Promise<Prompt> => {
    const startedAt = performance.now();
    return work.then(
      (prompt) => {
        record(flowOf(prompt.key), startedAt);
        return prompt;
      },
      (error: unknown) => {
        record('error', startedAt);
        throw error;
      },
    );
  };
  return {
    turn: (sessionKey, reply, options) => timed(engine.turn(sessionKey, reply, options)),
    peek: (sessionKey, options) => timed(engine.peek(sessionKey, options)),
    start: (sessionKey, flowId, options) => timed(engine.start(sessionKey, flowId, options)),
  };
}
