import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Prompt } from '../../../src/conversation/prompt.js';
import type { Reply } from '../../../src/conversation/reply.js';
import type {
  StartOptions,
  TurnEngine,
  TurnOptions,
} from '../../../src/conversation/turn-engine.js';
import { TurnEngineDouble } from '../../support/turn-engine-double.js';

/** One request the fake Slack received. */
export interface SlackCall {
  readonly path: string;
  readonly body: unknown;
  /** The `ts` a posted message was given; undefined when the call posted none. */
  ts?: string;
  /** For a `response_url` call, the id the URL ends in (which `/insure` it answers). */
  readonly respondId?: string;
}

/**
 * A local stand-in for Slack's side: Web API methods under `/api/`, the external upload URL and
 * `response_url`s under `/respond/`, and a CSV to fetch. Records every call.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly server: FastifyInstance = Fastify();
  csv = 'policyNumber,clientName,nrc,phone\nP-1,Mwila Banda,479974/11/1,260971234567\n';
  baseUrl = '';
  /** Web API methods that answer as Slack does when it refuses a call (`ok: false`). */
  readonly refusing = new Set<string>();
  /** Messages posted so far: each gets its own `ts`, as Slack's do (threads hang off them). */
  #posted = 0;
  /** Private files staff attached, served to a bot token only (see {@link addFile}). */
  readonly #files = new Map<string, { bytes: Uint8Array; mimetype: string }>();

  /**
   * Makes bytes a staff member's private file: returns its `url_private_download`, which answers
   * them to `Authorization: Bearer xoxb-…` and Slack's sign-in page to anything else.
   */
  addFile(id: string, bytes: Uint8Array, mimetype: string): string {
    this.#files.set(id, { bytes, mimetype });
    return `${this.baseUrl}/files-pri/T0STAFF-${id}/download`;
  }

  async start(): Promise<void> {
    await this.server.register(formbody);
    this.server.post('/api/:method', async (request) => {
      const { method } = request.params as { method: string };
      const call: SlackCall = { path: `/api/${method}`, body: request.body };
      this.calls.push(call);
      if (this.refusing.has(method)) return { ok: false, error: 'channel_not_found' };
      if (method === 'files.getUploadURLExternal') {
        return { ok: true, upload_url: `${this.baseUrl}/upload/F1`, file_id: 'F1' };
      }
      if (method === 'files.completeUploadExternal') return { ok: true, files: [{ id: 'F1' }] };
      if (method === 'conversations.open') return { ok: true, channel: { id: 'D0OPENED' } };
      if (method === 'chat.postMessage') {
        this.#posted += 1;
        const channel = (request.body as { channel?: unknown } | undefined)?.channel;
        call.ts = `1700000000.${String(this.#posted).padStart(6, '0')}`;
        return {
          ok: true,
          ts: call.ts,
          channel: typeof channel === 'string' ? channel : 'C1',
        };
      }
      return { ok: true, ts: '1.0', channel: 'C1' };
    });
    // The upload URL takes raw bytes of whatever type the client declares.
    await this.server.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
      scope.post('/upload/:id', async (request) => {
        this.calls.push({ path: '/upload', body: request.body });
        return 'OK';
      });
    });
    this.server.post('/respond/:id', async (request) => {
      const { id } = request.params as { id: string };
      this.calls.push({ path: '/respond', body: request.body, respondId: id });
      return { ok: true };
    });
    this.server.get('/files-pri/:file/download', async (request, reply) => {
      const authorization = request.headers.authorization ?? '';
      this.calls.push({ path: '/files-pri', body: { authorization } });
      const id = (request.params as { file: string }).file.replace(/^T0STAFF-/, '');
      const file = this.#files.get(id);
      if (!file || !/^Bearer xoxb-/.test(authorization)) {
        return reply.type('text/html').send('<html>Sign in to Slack</html>');
      }
      return reply.type(file.mimetype).send(Buffer.from(file.bytes));
    });
    this.server.get('/files/bordereau.csv', async (_request, reply) =>
      reply.type('text/csv').send(this.csv),
    );
    this.baseUrl = await this.server.listen({ port: 0, host: '127.0.0.1' });
  }

  async stop(): Promise<void> {
    await this.server.close();
  }

  callsTo(path: string): SlackCall[] {
    return this.calls.filter((call) => call.path === path);
  }
}

/** One recorded engine call. */
export interface EngineCall {
  readonly sessionKey: string;
  readonly reply: Reply;
  readonly options: TurnOptions | undefined;
}

/** An engine that answers with the queued prompts first, then with `answer` every time. */
export class AnsweringEngine extends TurnEngineDouble implements TurnEngine {
  readonly calls: EngineCall[] = [];
  readonly queue: Prompt[] = [];
  answer: Prompt = { key: 'staff.menu', input: 'text', final: false };
  failWith: Error | undefined;

  /** The flows started (each desk command starts the staff desk afresh). */
  readonly starts: { readonly sessionKey: string; readonly flowId: string }[] = [];

  override async turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt> {
    this.calls.push({ sessionKey, reply, options });
    if (this.failWith) throw this.failWith;
    return this.queue.shift() ?? this.answer;
  }

  /** A desk command the flow starts with is recorded as typed at the desk, which it is. */
  override async start(sessionKey: string, flowId: string, options?: StartOptions) {
    this.starts.push({ sessionKey, flowId });
    const { start, ...turnOptions } = options ?? {};
    return this.turn(
      sessionKey,
      { type: 'user.text', text: typeof start?.command === 'string' ? start.command : '' },
      turnOptions,
    );
  }
}
