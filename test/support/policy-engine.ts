import {
  type ChatPolicyOptions,
  chatPolicies,
  composeMiddleware,
  type Prompt,
  type Reply,
  type SessionGlance,
  type StartOptions,
  type TurnContext,
  type TurnEngine,
  type TurnMiddleware,
  type TurnOptions,
  type TurnRequest,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';

/** One engine call as a {@link PolicyEngine} saw it. */
export interface PolicyCall {
  readonly method: 'turn' | 'peek' | 'start';
  readonly options: TurnOptions | undefined;
  /** What reached the flow after the middleware; undefined when the step was kept or answered. */
  readonly reached: TurnRequest | undefined;
  /** The channel state kept, when middleware kept the step (`null` when it did not). */
  readonly kept: string | undefined | null;
}

/**
 * A TurnEngine double that runs the real conversation policies (and any channel middleware
 * after them) over a scripted session: the flow's side is `answer`, the session `session`.
 * For channel tests that are about what the channel hands the engine and renders.
 */
export class PolicyEngine implements TurnEngine {
  readonly calls: PolicyCall[] = [];
  session: SessionGlance;
  private readonly middleware: TurnMiddleware[];

  constructor(
    options: Partial<ChatPolicyOptions> & {
      readonly session?: Partial<SessionGlance>;
      readonly after?: readonly TurnMiddleware[];
      /** What the flow answers a request that reaches it; default the session's prompt. */
      readonly answer?: (request: TurnRequest) => Prompt;
    } = {},
  ) {
    this.session = { prompt: undefined, unseen: false, resumable: false, state: undefined };
    this.session = { ...this.session, ...options.session };
    this.middleware = [
      ...chatPolicies({
        shortcuts: { entryFlow: 'main-menu', isShortcut: (id) => id.startsWith('renew:') },
        logger: createLogger({ level: 'silent' }),
        ...options,
      }),
      ...(options.after ?? []),
    ];
    this.answer = options.answer ?? (() => this.session.prompt ?? MENU);
  }

  private readonly answer: (request: TurnRequest) => Prompt;

  /** The Replies that reached the flow, in order. */
  replies(): Reply[] {
    return this.calls.flatMap((call) =>
      call.reached?.kind === 'reply' ? [call.reached.reply] : [],
    );
  }

  turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt> {
    return this.run('turn', sessionKey, { kind: 'reply', reply }, options);
  }

  peek(sessionKey: string, options?: TurnOptions): Promise<Prompt> {
    return this.run('peek', sessionKey, { kind: 'peek' }, options);
  }

  start(sessionKey: string, flowId: string, options?: StartOptions): Promise<Prompt> {
    return this.run('start', sessionKey, { kind: 'start', flowId, start: options?.start }, options);
  }

  private async run(
    method: PolicyCall['method'],
    sessionKey: string,
    request: TurnRequest,
    options: TurnOptions | undefined,
  ): Promise<Prompt> {
    let reached: TurnRequest | undefined;
    let kept: string | undefined | null = null;
    const session = this.session;
    const context: TurnContext = {
      sessionKey,
      options: options ?? {},
      request,
      session,
      channelState: undefined,
      keep: async (state) => {
        kept = state;
        return session.prompt ?? { ...MENU, final: true };
      },
    };
    const prompt = await composeMiddleware(this.middleware, async () => {
      reached = context.request;
      return this.answer(context.request);
    })(context);
    this.calls.push({ method, options, reached, kept });
    return prompt;
  }
}

/** The menu a fresh conversation opens on. */
export const MENU: Prompt = {
  key: 'menu',
  input: 'choice',
  final: false,
  choices: [{ id: 'motor', label: 'menu.motor' }],
};
