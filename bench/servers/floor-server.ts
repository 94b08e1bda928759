// The same-work floor: what a USSD turn of the motor journey cannot do with less. The same
// fastify + formbody stack; one Redis GET and one SET (auto-pipelined, as insurechat's store
// sends them) of a record of the same bytes (the flow's persisted snapshot and its prompt); the real flow machines, with each caller's actor kept in a
// Map (no restore, no lock, no version check); the same insurer calls made with bare
// `undici.request` and `body.json()` (no validation, retries, breaker or timeouts); the same
// screens laid out by the USSD channel's own renderer. No deadline, no exactly-once guard, no
// ordering, no logging: the guarantees insurechat pays for are what this floor leaves out.
import formbody from '@fastify/formbody';
import fastify from 'fastify';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { type Actor, type AnyStateMachine, createActor } from 'xstate';
import type { FlowId } from '../../flows/index.js';
import { createFlowRegistry } from '../../flows/index.js';
import { contract, type PartnerClient } from '../../src/api/index.js';
import { newestSegment, toUssdScreens, ussdInputToReply } from '../../src/channels/ussd/index.js';
import { lusakaToday } from '../../src/clock/index.js';
import {
  AWAITING_INPUT,
  type FlowStartInput,
  type Prompt,
  renderPrompt,
  t,
} from '../../src/conversation/index.js';
import { normaliseCaller } from '../../src/msisdn/index.js';
import { serveForBench } from '../lib/server-process.js';
import { BenchServerEnv, SESSION_TTL_SECONDS, UssdForm } from './bench-env.js';

interface Call {
  readonly path?: Record<string, string>;
  readonly query?: Record<string, string | number>;
  readonly body?: unknown;
}

let requestsTaken = 0;
const MAX_ACTORS = 1_000;

await serveForBench(async () => {
  const env = BenchServerEnv.parse(process.env);
  const upstream = process.env.BENCH_PARTNER_API_URL;
  if (!upstream) throw new Error('the floor needs BENCH_PARTNER_API_URL (a sandbox process)');
  const base = upstream.replace(/\/+$/, '');
  const headers = {
    authorization: `Bearer ${process.env.BENCH_PARTNER_API_KEY ?? ''}`,
    accept: 'application/json',
    'content-type': 'application/json',
  };
  const entries: Readonly<Record<string, { method: string; path: string }>> = contract;

  /** A bare insurer call: path filled in, one request, `body.json()`; nothing checked. */
  async function call(name: string, input?: Call): Promise<unknown> {
    const entry = entries[name];
    if (!entry) throw new Error(`unknown operation ${name}`);
    let path = entry.path.replace(/\{(\w+)\}/g, (_, param: string) =>
      encodeURIComponent(input?.path?.[param] ?? ''),
    );
    if (input?.query) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(input.query)) search.set(key, String(value));
      path = `${path}?${search}`;
    }
    const response = await request(`${base}${path}`, {
      method: entry.method as 'GET',
      headers,
      body: input?.body === undefined ? null : JSON.stringify(input.body),
    });
    const json: unknown = await response.body.json();
    if (response.statusCode >= 300) {
      throw Object.assign(new Error(`${name} answered ${response.statusCode}`), {
        status: response.statusCode,
      });
    }
    return json;
  }
  // The flows only ever call `call` on the way to the payment screen; the rest is never reached.
  const client = { call } as unknown as PartnerClient;
  const flows = createFlowRegistry({
    client,
    payments: {
      start: () => Promise.reject(new Error('the floor does not take payments')),
      check: () => Promise.reject(new Error('the floor does not take payments')),
    },
  });

  // The transport insurechat's session store uses: a connection of its own with ioredis
  // auto-pipelining, so concurrent turns' commands leave in one socket write. The reference row
  // (BENCH_FLOOR_PLAIN_REDIS=1) sends each GET and SET as its own write.
  const redis = new Redis(env.REDIS_URL, {
    enableAutoPipelining: process.env.BENCH_FLOOR_PLAIN_REDIS !== '1',
  });
  const actors = new Map<string, Actor<AnyStateMachine>>();
  const locale = 'en';
  const useMyNumber = t('ussd.useMyNumber', undefined, locale);

  const settled = (actor: Actor<AnyStateMachine>): Promise<void> =>
    new Promise((resolve) => {
      const done = () => {
        const snapshot = actor.getSnapshot();
        return snapshot.status !== 'active' || snapshot.hasTag(AWAITING_INPUT);
      };
      if (done()) return resolve();
      const subscription = actor.subscribe(() => {
        if (!done()) return;
        subscription.unsubscribe();
        resolve();
      });
    });

  /** Runs a flow (and the flows it hands over to) until it waits for input. */
  async function advance(actor: Actor<AnyStateMachine>, input: FlowStartInput) {
    let current = actor;
    for (;;) {
      await settled(current);
      const snapshot = current.getSnapshot();
      const next = (snapshot.output as { next?: FlowId } | undefined)?.next;
      if (snapshot.status !== 'done' || next === undefined) return current;
      current = createActor(flows[next].machine, { input });
      current.start();
    }
  }

  function screenOf(prompt: Prompt): string {
    const rendered = renderPrompt(prompt, locale);
    const choices =
      prompt.input === 'contact'
        ? [...rendered.choices, { id: 'ussd.useCallerNumber', label: useMyNumber }]
        : rendered.choices;
    return toUssdScreens({ text: rendered.text, choices }, locale)[0] ?? '';
  }

  const app = fastify({ logger: false });
  await app.register(formbody);
  app.addHook('onRequest', async () => {
    requestsTaken += 1;
  });
  app.post('/ussd/africastalking', async (req, reply) => {
    const form = UssdForm.safeParse(req.body);
    const msisdn = form.success ? normaliseCaller(form.data.phoneNumber) : undefined;
    if (!form.success || msisdn === undefined) return reply.code(400).send('bad request');
    const key = `${env.BENCH_PREFIX}${form.data.sessionId}`;
    await redis.get(key);
    const typed = newestSegment(form.data.text);
    // As the engine starts a flow: the session's input and today's date in Lusaka.
    const input: FlowStartInput = {
      audience: 'policyholder',
      locale,
      principal: { kind: 'phone', phone: msisdn },
      callerPhone: msisdn,
      today: lusakaToday(),
    };
    let actor = actors.get(key);
    if (typed === undefined || !actor) {
      actor?.stop();
      actor = createActor(flows['main-menu'].machine, { input });
      actor.start();
    } else {
      const prompt = (actor.getSnapshot().context as { prompt: Prompt }).prompt;
      actor.send(ussdInputToReply(typed, prompt, msisdn));
    }
    actor = await advance(actor, input);
    actors.set(key, actor);
    // Bounded like insurechat's actor cache (1,000 entries), oldest journey out first.
    if (actors.size > MAX_ACTORS) {
      const [oldest, old] = actors.entries().next().value ?? [];
      if (oldest !== undefined) actors.delete(oldest);
      old?.stop();
    }
    const prompt = (actor.getSnapshot().context as { prompt: Prompt }).prompt;
    // The record insurechat keeps: the persisted snapshot without its prompt, the prompt beside.
    const persisted = actor.getPersistedSnapshot() as unknown as { context: { prompt?: Prompt } };
    // A spread with the prompt left undefined, as insurechat's store writes it: the same JSON as
    // a rest copy without the key, at a fraction of its cost (a rest copy that excludes a key
    // walks the object's keys in the runtime, the slow way once the context has many fields).
    const context = { ...persisted.context, prompt: undefined };
    const record = JSON.stringify({ snapshot: { ...persisted, context }, prompt });
    await redis.set(key, record, 'EX', SESSION_TTL_SECONDS);
    return reply.type('text/plain; charset=utf-8').send(`CON ${screenOf(prompt)}`);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    requestsTaken: () => requestsTaken,
    close: async () => {
      if (process.env.BENCH_CPU_PROF_DIR)
        process.stderr.write(
          `bench: floor server (pid ${process.pid}) took ${requestsTaken} requests\n`,
        );
      await app.close();
      for (const actor of actors.values()) actor.stop();
      redis.disconnect();
    },
  };
});
