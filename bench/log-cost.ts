import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { createLogger, PERSONAL_FIELDS } from '../src/log/index.js';
import { createServer, loadConfig } from '../src/server/index.js';
import { motorPurchaseInputs } from '../test/support/motor-purchase-inputs.js';
import { cpuMicros, fmt, fmtSpread, spread, verdict } from './lib/stats.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';

/** Options of the log-cost measurement. */
export interface LogCostOptions {
  readonly pairs: number;
  readonly linesPerRun: number;
  readonly log: (line: string) => void;
}

/**
 * Lines a USSD turn writes at info: the real server in this process (embedded sandbox, memory
 * sessions) walks the motor journey with its logger at info; the embedded insurer's own lines
 * are left out (a real insurer logs elsewhere).
 */
async function infoLinesPerTurn(journeys: number): Promise<{ lines: number; turns: number }> {
  let lines = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line && !line.includes('"module":"sandbox"')) lines += 1;
      }
      done();
    },
  });
  const { config } = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    NODE_ENV: 'test',
    USSD_GATEWAY_SECRET: BENCH_GATEWAY_SECRET,
    // The journeys start at the menu, as the other servers' do: no language screen first.
    USSD_ASK_LANGUAGE: 'false',
  });
  const server = await createServer(config, {
    logger: createLogger({ level: 'info', destination: sink }),
    // Each journey is a new phone: no one-time privacy notice before it, as in the other servers.
    askConsent: false,
  });
  let turns = 0;
  try {
    const startLines = lines;
    for (let journey = 0; journey < journeys; journey += 1) {
      // The digit before the last varies: each journey's plate and NRC are its own.
      const phoneNumber = `+26097${String(3_000_000 + journey * 10).padStart(7, '0')}`;
      const typed: string[] = [];
      for (const input of ['', ...motorPurchaseInputs(phoneNumber)]) {
        if (input !== '' || typed.length > 0) typed.push(input);
        const response = await server.app.inject({
          method: 'POST',
          url: '/ussd/africastalking',
          headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
          payload: {
            sessionId: `log-${journey}`,
            serviceCode: '*384#',
            phoneNumber,
            text: typed.join('*'),
          },
        });
        if (response.statusCode !== 200) throw new Error(`turn failed: ${response.statusCode}`);
        turns += 1;
      }
    }
    return { lines: lines - startLines, turns };
  } finally {
    await server.close();
  }
}

/** CPU per line written by `logger` (the server's request line), over `count` lines. */
function timeLines(logger: Logger, count: number): number {
  const since = process.cpuUsage();
  for (let i = 0; i < count; i += 1) {
    logger.info(
      { method: 'POST', route: '/ussd/africastalking', status: 200, ms: i % 50 },
      'request',
    );
  }
  return cpuMicros(since) / count;
}

/**
 * What logging costs a turn at `LOG_LEVEL=info`: the lines a turn writes, times the CPU of one
 * line through the real logger (into pino's destination on /dev/null), alternating with the same line
 * through the previous configuration (80 wildcard redaction paths) for comparison.
 */
export async function runLogCost(options: LogCostOptions): Promise<string> {
  const { lines, turns } = await infoLinesPerTurn(5);
  const linesPerTurn = lines / Math.max(1, turns);
  // Where production writes: pino's own destination (sync, one write per line), here /dev/null.
  const sink = pino.destination({ dest: '/dev/null', sync: true });
  const current = createLogger({ level: 'info', destination: sink });
  const wildcard = pino(
    {
      level: 'info',
      redact: {
        paths: PERSONAL_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]),
        censor: '[REDACTED]',
      },
      base: { service: 'insurechat' },
    },
    sink,
  );
  timeLines(current, options.linesPerRun);
  timeLines(wildcard, options.linesPerRun);
  const currentRuns: number[] = [];
  const wildcardRuns: number[] = [];
  for (let pair = 0; pair < options.pairs; pair += 1) {
    const order = pair % 2 === 0 ? [current, wildcard] : [wildcard, current];
    for (const logger of order) {
      const micros = timeLines(logger, options.linesPerRun);
      (logger === current ? currentRuns : wildcardRuns).push(micros);
    }
    options.log(
      `  log line: ${fmt(currentRuns[pair] ?? Number.NaN, 1)} µs (top-level paths + serializers), ${fmt(wildcardRuns[pair] ?? Number.NaN, 1)} µs (80 wildcard paths)`,
    );
  }
  const perLine = spread(currentRuns);
  const perTurn = spread(currentRuns.map((micros) => micros * linesPerTurn));
  return [
    '## 3. Log cost per turn',
    '',
    `Lines a USSD turn writes at \`LOG_LEVEL=info\`: ${fmt(linesPerTurn, 2)} (${lines} lines over ${turns} turns of the motor journey through the real server in-process, the embedded insurer's own lines left out). CPU per line through the real logger into pino's own destination (one write per line, as in production) opened on /dev/null, ${options.linesPerRun} lines per run, ${options.pairs} alternating pairs against the previous configuration:`,
    '',
    '| logger | CPU µs per line |',
    '|---|---:|',
    `| top-level redaction paths + masking serializers (now) | ${fmtSpread(perLine, 1)} |`,
    `| 80 wildcard redaction paths (before) | ${fmtSpread(spread(wildcardRuns), 1)} |`,
    '',
    `Target ≤ 10 µs of logging per turn at info: ${fmtSpread(perTurn, 1)} µs — ${verdict(perTurn.median <= 10)}`,
    '',
  ].join('\n');
}
