import { request } from 'undici';
import { createPartnerClient } from '../src/api/index.js';
import { startServerProcess } from './lib/server-process.js';
import { cpuMicros, fmt, fmtRatio, fmtSpread, spread, verdict } from './lib/stats.js';

/** Options of the client-overhead comparison. */
export interface ClientOverheadOptions {
  readonly pairs: number;
  readonly callsPerRun: number;
  readonly log: (line: string) => void;
}

async function timeCalls(calls: number, call: () => Promise<unknown>): Promise<number> {
  const since = process.cpuUsage();
  for (let i = 0; i < calls; i += 1) await call();
  return cpuMicros(since) / calls;
}

/**
 * CPU per call in this process for the Partner API client (validation, typed response) and for
 * a bare undici request with JSON parsing, on the same sandbox route, alternating run by run.
 */
export async function runClientOverhead(options: ClientOverheadOptions): Promise<string> {
  const sandbox = await startServerProcess(
    'sandbox',
    new URL('./servers/sandbox-server.ts', import.meta.url),
    {},
  );
  const baseUrl = String(sandbox.info.baseUrl);
  const apiKey = String(sandbox.info.apiKey);
  const client = createPartnerClient({ baseUrl, apiKey });
  try {
    // A read whose answer the client checks against the contract on every call: catalogue
    // reads (products, categories) are checked once per distinct body, so they would flatter it.
    const query = { PageNumber: 1, PageSize: 5 };
    const url = `${baseUrl}${client.pathOf('getIndividuals')}?PageNumber=1&PageSize=5`;
    const viaClient = () => client.call('getIndividuals', { query });
    const bare = async () => {
      const response = await request(url, { headers: { authorization: `Bearer ${apiKey}` } });
      return await response.body.json();
    };
    const first = await client.call('getIndividuals', { query });
    if (first.data.length === 0) throw new Error('the sandbox lists no individual');
    const check = await request(url, { headers: { authorization: `Bearer ${apiKey}` } });
    await check.body.dump();
    if (check.statusCode !== 200) throw new Error(`the bare request got ${check.statusCode}`);
    // JIT warm-up: the client's first few hundred calls are slower than its steady state.
    await timeCalls(Math.min(1000, options.callsPerRun), viaClient);
    await timeCalls(Math.min(1000, options.callsPerRun), bare);
    const clientRuns: number[] = [];
    const bareRuns: number[] = [];
    for (let pair = 0; pair < options.pairs; pair += 1) {
      if (pair % 2 === 0) {
        clientRuns.push(await timeCalls(options.callsPerRun, viaClient));
        bareRuns.push(await timeCalls(options.callsPerRun, bare));
      } else {
        bareRuns.push(await timeCalls(options.callsPerRun, bare));
        clientRuns.push(await timeCalls(options.callsPerRun, viaClient));
      }
      options.log(
        `  client ${fmt(clientRuns[pair] ?? Number.NaN)} µs/call, bare undici ${fmt(bareRuns[pair] ?? Number.NaN)} µs/call`,
      );
    }
    const ratio = spread(clientRuns.map((value, i) => value / (bareRuns[i] ?? Number.NaN)));
    return [
      '## 6. Client overhead',
      '',
      `CPU per call in the calling process (the sandbox runs in a child process), ${options.callsPerRun}`,
      'sequential calls per run of `getIndividuals` (`GET /policyholders/individuals`, a page of 5):',
      'the Partner API client (input validation, keep-alive pool, response validated with zod on',
      'every call) against a bare `undici.request` with `body.json()` to the same URL. Runs',
      'alternate; ratios pair by pair.',
      '',
      '| caller | CPU µs per call |',
      '|---|---:|',
      `| Partner API client | ${fmtSpread(spread(clientRuns))} |`,
      `| bare undici request | ${fmtSpread(spread(bareRuns))} |`,
      '',
      `Target ≤ 1.2× CPU per call: ${fmtRatio(ratio)} — ${verdict(ratio.median <= 1.2)}`,
      '',
    ].join('\n');
  } finally {
    await client.close();
    await sandbox.stop();
  }
}
