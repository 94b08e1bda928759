import { Redis } from 'ioredis';
import { type AnyStateMachine, createActor, waitFor } from 'xstate';
import { createFlowRegistry, type FlowId, type Flows } from '../flows/index.js';
import { createPartnerClient } from '../src/api/index.js';
import {
  type Audience,
  AWAITING_INPUT,
  createTurnEngine,
  type Prompt,
  type Reply,
} from '../src/conversation/index.js';
import { createLogger } from '../src/log/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { MemorySessionStore, RedisSessionStore } from '../src/session/index.js';
import { deletePrefix, usedMemory } from './lib/redis-instance.js';
import { fmt, verdict } from './lib/stats.js';

/** One state reached while exploring, with the bytes its session record takes. */
interface VisitedState {
  readonly flowId: string;
  readonly leaves: readonly string[];
  readonly recordBytes: number;
  readonly snapshotBytes: number;
  readonly data: string;
}

/** Leaf state paths of a state value: `'a'` → `['a']`, `{a: {b: 'c'}}` → `['a.b.c']`. */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix ? `${prefix}.${value}` : value];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) =>
      leafPaths(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [];
}

interface StateNodeLike {
  readonly states: Readonly<Record<string, StateNodeLike>>;
}

/** Every atomic (leaf) state of a machine, as dotted paths. */
function atomicStates(machine: AnyStateMachine): string[] {
  const walk = (node: StateNodeLike, prefix: string): string[] => {
    const children = Object.entries(node.states);
    if (children.length === 0) return prefix ? [prefix] : [];
    return children.flatMap(([key, child]) => walk(child, prefix ? `${prefix}.${key}` : key));
  };
  return walk(machine.root as unknown as StateNodeLike, '');
}

function futureDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Replies worth trying on a prompt: each choice, canned valid answers for its input, back. */
function candidateReplies(prompt: Prompt): Reply[] {
  const replies: Reply[] = (prompt.choices ?? []).map((c) => ({ type: 'user.choice', id: c.id }));
  const texts: Record<string, string[]> = {
    nrc: ['479974/11/1', '123456/10/1'],
    phone: ['0971234560'],
    date: [futureDate(7)],
    amount: ['150000'],
    text: ['AJQ 1909', 'Toyota Corolla 2015', 'Mwila Banda', 'Lusaka', 'LN-1001'],
    choice: [],
    none: [],
  };
  for (const text of texts[prompt.input] ?? []) replies.push({ type: 'user.text', text });
  if (prompt.input === 'contact') replies.push({ type: 'user.contact', phone: '+260971234560' });
  if (prompt.input === 'photo') {
    replies.push({ type: 'user.photo', url: 'https://example.com/doc.jpg', fileName: 'doc.jpg' });
  }
  replies.push({ type: 'user.back' });
  return replies;
}

/**
 * Explores every flow breadth-first through the real engine and flows over an in-process sandbox:
 * each distinct state (flow + state value) is expanded once with every candidate reply, branching
 * by copying its stored record to a new session key. Payments are faked (never started).
 */
async function exploreStates(
  maxTurns: number,
): Promise<{ visited: VisitedState[]; flows: Flows; turns: number }> {
  const sandbox = createSandbox({
    apiKey: 'bench-api-key',
    logger: createLogger({ level: 'silent' }),
  });
  const { url } = await sandbox.listen(0);
  const client = createPartnerClient({ baseUrl: url, apiKey: sandbox.apiKey });
  const flows = createFlowRegistry({
    client,
    payments: {
      start: async (attempt) => ({ reference: `bench-${attempt.purchase}`, status: 'Pending' }),
      check: async () => 'pending',
    },
  });
  const store = new MemorySessionStore();
  const engine = createTurnEngine({
    store,
    flows,
    logger: createLogger({ level: 'silent' }),
    cache: false,
  });
  const visited = new Map<string, VisitedState>();
  const queue: string[] = [];
  let keyCounter = 0;
  let turns = 0;
  const record = async (key: string) => {
    const stored = await store.read(key);
    if (!stored) return;
    const parsed = JSON.parse(stored.data) as { flowId: string; snapshot: { value: unknown } };
    const leaves = leafPaths(parsed.snapshot.value);
    const id = `${parsed.flowId}:${JSON.stringify(parsed.snapshot.value)}`;
    if (visited.has(id)) return;
    visited.set(id, {
      flowId: parsed.flowId,
      leaves,
      recordBytes: Buffer.byteLength(stored.data),
      snapshotBytes: Buffer.byteLength(JSON.stringify(parsed.snapshot)),
      data: stored.data,
    });
    queue.push(stored.data);
  };
  try {
    for (const audience of ['policyholder', 'funeral-member', 'staff'] satisfies Audience[]) {
      keyCounter += 1;
      const key = `explore:${keyCounter}`;
      await engine.turn(key, { type: 'user.text', text: '' }, { audience, deadlineMs: 10_000 });
      turns += 1;
      await record(key);
    }
    // Every flow also from its own first state: some (the staff desk) are not reached from a menu.
    for (const flowId of Object.keys(flows) as FlowId[]) {
      const audience: Audience = flowId === 'staff-desk' ? 'staff' : 'policyholder';
      const input = { audience, locale: 'en', callerPhone: '260971234560' };
      const actor = createActor(flows[flowId].machine, { input });
      actor.subscribe({ error: () => undefined });
      actor.start();
      try {
        const settled = await waitFor(
          actor,
          (snapshot) => snapshot.status !== 'active' || snapshot.hasTag(AWAITING_INPUT),
          { timeout: 10_000 },
        );
        if (settled.status !== 'active') continue;
        keyCounter += 1;
        const key = `explore:${keyCounter}`;
        const acquired = await store.acquire(key);
        if (acquired.status !== 'acquired') continue;
        await store.commit(
          acquired.lease,
          JSON.stringify({
            flowId,
            flowVersion: flows[flowId].version,
            snapshot: actor.getPersistedSnapshot(),
            ...input,
            prompt: (settled.context as { prompt: Prompt }).prompt,
            updatedAt: new Date().toISOString(),
          }),
        );
        await record(key);
      } catch {
        // A flow that cannot start on its own is explored from the menu only.
      } finally {
        actor.stop();
      }
    }
    while (queue.length > 0 && turns < maxTurns) {
      const data = queue.shift()!;
      const prompt = (JSON.parse(data) as { prompt: Prompt }).prompt;
      for (const reply of candidateReplies(prompt)) {
        keyCounter += 1;
        const key = `explore:${keyCounter}`;
        const acquired = await store.acquire(key);
        if (acquired.status !== 'acquired') continue;
        await store.commit(acquired.lease, data);
        await engine.turn(key, reply, { deadlineMs: 10_000 });
        turns += 1;
        await record(key);
      }
    }
    await engine.idle();
  } finally {
    engine.close();
    await client.close();
    await sandbox.close();
  }
  return { visited: [...visited.values()], flows, turns };
}

/** Writes `count` sessions of `data` through the Redis store and measures INFO memory's delta. */
async function redisMemoryFor(redisUrl: string, data: string, count: number): Promise<number> {
  const redis = new Redis(redisUrl);
  const prefix = `bench:${process.pid}:mem:`;
  const store = new RedisSessionStore({ redis, keyPrefix: prefix });
  try {
    await deletePrefix(redis, prefix);
    const before = await usedMemory(redis);
    const batch = 200;
    for (let start = 0; start < count; start += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, count - start) }, async (_, i) => {
          const key = `ussd:2609700${String(start + i).padStart(5, '0')}`;
          const acquired = await store.acquire(key);
          if (acquired.status === 'acquired') await store.commit(acquired.lease, data);
        }),
      );
    }
    const after = await usedMemory(redis);
    return after - before;
  } finally {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  }
}

/** Options of the snapshot-size section. */
export interface SnapshotSizeOptions {
  readonly redisUrl: string;
  readonly maxTurns: number;
  readonly sessions: number;
  readonly log: (line: string) => void;
}

/** Snapshot bytes for every state reached in every flow, and Redis memory for live sessions. */
export async function runSnapshotSize(options: SnapshotSizeOptions): Promise<string> {
  const { visited, flows, turns } = await exploreStates(options.maxTurns);
  options.log(`  explored ${visited.length} states in ${turns} turns`);
  const lines: string[] = [
    '## 5. Snapshot bytes and Redis memory',
    '',
    'Every flow explored breadth-first (from the entry menus and from its own first state)',
    'through the real engine and flows against an in-process',
    'sandbox insurer: each distinct state (flow + state value) is expanded once with every choice,',
    'canned valid answers for its input kind, and Back (payments faked). Bytes are of the whole',
    'session record the store keeps (XState persisted snapshot + flow id/version + prompt + caller)',
    `and of the XState snapshot alone. ${turns} turns, ${visited.length} distinct states.`,
    '',
    '| flow | atomic states reached / defined | largest record B | median record B | largest XState snapshot B | states over 2 KB |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  let largest: VisitedState | undefined;
  for (const flowId of Object.keys(flows) as FlowId[]) {
    const mine = visited.filter((state) => state.flowId === flowId);
    const defined = atomicStates(flows[flowId].machine);
    const reached = new Set(mine.flatMap((state) => state.leaves));
    const sizes = mine.map((state) => state.recordBytes).sort((a, b) => a - b);
    const over = mine.filter((state) => state.recordBytes > 2048).length;
    for (const state of mine)
      if (!largest || state.recordBytes > largest.recordBytes) largest = state;
    lines.push(
      `| ${flowId} | ${reached.size} / ${defined.length} | ${fmt(sizes.at(-1) ?? Number.NaN)} | ${fmt(sizes[Math.floor(sizes.length / 2)] ?? Number.NaN)} | ${fmt(mine.length ? Math.max(...mine.map((s) => s.snapshotBytes)) : Number.NaN)} | ${over} |`,
    );
  }
  const maxBytes = largest?.recordBytes ?? Number.NaN;
  lines.push('');
  lines.push(
    `Target ≤ 2 KB per state: largest record ${fmt(maxBytes)} B (${largest ? `${largest.flowId} ${largest.leaves.join(', ')}` : 'none'}) — ${verdict(Number.isFinite(maxBytes) ? maxBytes <= 2048 : undefined)}`,
  );
  lines.push(
    'States not reached are those behind failures (upstream errors, timeouts) or inputs the canned answers do not cover.',
  );
  lines.push('');
  if (largest) {
    const delta = await redisMemoryFor(options.redisUrl, largest.data, options.sessions);
    const mb = delta / 2 ** 20;
    options.log(`  ${options.sessions} sessions of ${largest.recordBytes} B: ${fmt(mb, 1)} MiB`);
    lines.push(
      `Redis memory for ${options.sessions.toLocaleString('en')} live sessions, each holding the largest record above (${largest.recordBytes} B) through RedisSessionStore: INFO used_memory delta ${fmt(delta / 1e6, 1)} MB = ${fmt(mb, 1)} MiB (${fmt(delta / options.sessions)} B per session). Target ≤ 30 MB — ${verdict(delta <= 30 * 1_000_000)}.`,
    );
    lines.push('');
  }
  return lines.join('\n');
}
