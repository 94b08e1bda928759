// The sandbox insurer in its own process, so the client bench measures only the caller's CPU.
import { createSandbox } from '../../src/sandbox/index.js';
import { serveForBench } from '../lib/server-process.js';

await serveForBench(async () => {
  const sandbox = createSandbox({ apiKey: 'bench-api-key' });
  const { url } = await sandbox.listen(0);
  return {
    port: Number(new URL(url).port),
    info: { baseUrl: url, apiKey: sandbox.apiKey },
    close: () => sandbox.close(),
  };
});
