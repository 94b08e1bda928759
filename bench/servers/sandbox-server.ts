// The sandbox insurer in its own process, so a bench measures only the caller's CPU.
import { createSandbox } from '../../src/sandbox/index.js';
import { serveForBench } from '../lib/server-process.js';

await serveForBench(async () => {
  // BENCH_BOOK_SIZE: a large book besides the demo book (the cover lookup bench).
  const bookSize = Number(process.env.BENCH_BOOK_SIZE ?? 0);
  const sandbox = createSandbox({ apiKey: 'bench-api-key', ...(bookSize > 0 ? { bookSize } : {}) });
  // BENCH_UPSTREAM_DELAY_MS: a slow insurer, answering every call that much later.
  const delayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 0);
  if (delayMs > 0) {
    sandbox.app.addHook('onRequest', (_request, _reply, done) => {
      setTimeout(done, delayMs);
    });
  }
  const { url } = await sandbox.listen(0);
  return {
    port: Number(new URL(url).port),
    info: { baseUrl: url, apiKey: sandbox.apiKey },
    close: () => sandbox.close(),
  };
});
