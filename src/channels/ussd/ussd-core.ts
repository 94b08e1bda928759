import {
  type MessageKey,
  type Prompt,
  type Reply,
  type TurnEngine,
  t,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import {
  type RenderedPrompt,
  toUssdScreens,
  USSD_BACK_KEY,
  USSD_MORE_KEY,
} from './ussd-screens.js';
import type { UssdState, UssdStateStore } from './ussd-state-store.js';

/** Renders a Prompt through the locale catalogue (src/conversation's `renderPrompt`). */
export type RenderPrompt = (prompt: Prompt, locale: string) => RenderedPrompt;

/** One gateway request, already authenticated and reduced to what the core needs. */
export interface UssdRequest {
  /** The gateway's id for this call; a new id from the same phone means the last call dropped. */
  readonly sessionId: string;
  /** The caller's MSISDN, normalised (`260971234567`). */
  readonly msisdn: string;
  /** The newest thing the user typed; `undefined` on the dial that opens a call. */
  readonly input: string | undefined;
}

/** What the gateway shows: a screen, and whether the call ends with it. */
export interface UssdResponse {
  readonly text: string;
  readonly end: boolean;
}

/** Options of {@link createUssdCore}. */
export interface UssdCoreOptions {
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly states: UssdStateStore;
  /**
   * What the engine holds for a session key: the Prompt its conversation is waiting on, and
   * whether that Prompt is a result the caller has not seen yet. A dropped call is offered
   * "Continue" only while there is one. Omitted → the USSD state alone decides.
   */
  readonly peek?: (sessionKey: string) => Promise<EngineSessionView | undefined>;
  /**
   * Ends a session's conversation outright for "Start again". Omitted → a `user.cancel` turn,
   * which ends it when the flow honours cancel on every screen.
   */
  readonly reset?: (sessionKey: string) => Promise<void>;
  readonly logger: Logger;
  /** Locale for every USSD caller (gateways do not tell). Default `en`. */
  readonly locale?: string;
  /** The engine's deadline for a USSD turn. Default 4000 ms. */
  readonly deadlineMs?: number;
  /**
   * Backstop under the gateway's 15 s: if a turn has not answered by then the caller gets a
   * "we will SMS you" screen. Default 10 000 ms.
   */
  readonly answerWithinMs?: number;
}

/** What {@link UssdCoreOptions.peek} reports about a live conversation. */
export interface EngineSessionView {
  readonly prompt: Prompt;
  /** True when the engine will re-show `prompt` on the next reply instead of applying it. */
  readonly unseen: boolean;
  /** Worth a "Continue" (mid-flow); otherwise a dial starts afresh. */
  readonly resumable: boolean;
}

/** The channel-neutral USSD logic both gateway adapters call. */
export interface UssdCore {
  handle(request: UssdRequest): Promise<UssdResponse>;
  /** Resolves when every turn that is running has answered (graceful shutdown). */
  idle(): Promise<void>;
}

/**
 * The Reply a dial sends. The engine starts the entry menu on it when it holds no conversation
 * (the reply itself is dropped) and re-shows a result the caller has not seen yet.
 */
const DIAL: Reply = { type: 'user.text', text: '' };
/** Choice id of the extra "Use this number" line on a contact prompt. */
const USE_CALLER_NUMBER = 'ussd.useCallerNumber';

/** The session key of a USSD caller. */
export function ussdSessionKey(msisdn: string): string {
  return `ussd:${msisdn}`;
}

/** Maps what the caller typed to a Reply for the Prompt on screen. */
export function ussdInputToReply(input: string, prompt: Prompt, msisdn: string): Reply {
  const typed = input.trim();
  if (typed === '00' || typed === '#') return { type: 'user.cancel' };
  if (typed === USSD_BACK_KEY) return { type: 'user.back' };
  const choices = prompt.choices ?? [];
  if (/^\d{1,2}$/.test(typed)) {
    const position = Number(typed);
    const picked = choices[position - 1];
    if (picked) return { type: 'user.choice', id: picked.id };
    if (prompt.input === 'contact' && position === choices.length + 1) {
      // The gateway vouches for the caller's number, as Telegram's contact share does.
      return { type: 'user.contact', phone: msisdn };
    }
  }
  return { type: 'user.text', text: typed };
}

/** Creates the USSD core over the turn engine. */
export function createUssdCore(options: UssdCoreOptions): UssdCore {
  const locale = options.locale ?? 'en';
  const deadlineMs = options.deadlineMs ?? 4000;
  const answerWithinMs = options.answerWithinMs ?? 10_000;
  const say = (key: `ussd.${string}` & MessageKey): string => t(key, undefined, locale);
  const running = new Set<Promise<unknown>>();

  const renderForUssd = (prompt: Prompt): RenderedPrompt => {
    const rendered = options.render(prompt, locale);
    if (prompt.input !== 'contact') return rendered;
    return {
      text: rendered.text,
      choices: [...rendered.choices, { id: USE_CALLER_NUMBER, label: say('ussd.useMyNumber') }],
    };
  };
  const resumeMenu: RenderedPrompt = {
    text: say('ussd.resumeTitle'),
    choices: [
      { id: 'continue', label: say('ussd.resumeContinue') },
      { id: 'restart', label: say('ussd.resumeRestart') },
    ],
  };

  /** Shows `page` of the state's screen and remembers it; a last screen that ends forgets it. */
  const show = async (msisdn: string, state: UssdState): Promise<UssdResponse> => {
    const screens =
      state.mode === 'resume'
        ? toUssdScreens(resumeMenu, locale)
        : toUssdScreens(renderForUssd(state.prompt), locale);
    const page = Math.min(state.page, screens.length - 1);
    const last = page === screens.length - 1;
    const end = state.mode === 'prompt' && state.prompt.final && last;
    if (end) await options.states.delete(msisdn);
    else await options.states.set(msisdn, { ...state, page });
    return { text: screens[page] ?? '', end };
  };

  const turn = async (
    request: UssdRequest,
    reply: Reply,
  ): Promise<{ prompt: Prompt } | { response: UssdResponse }> => {
    const work = options.engine.handle(ussdSessionKey(request.msisdn), reply, {
      deadlineMs,
      audience: 'policyholder',
      address: { channel: 'ussd', address: request.msisdn, locale },
    });
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), answerWithinMs);
    });
    try {
      const outcome = await Promise.race([work, late]);
      if (outcome === 'late') {
        options.logger.warn(
          { channel: 'ussd', gatewaySessionId: request.sessionId, answerWithinMs },
          'ussd turn still running at the answer backstop',
        );
        return { response: { text: say('ussd.stillWorking'), end: true } };
      }
      return { prompt: outcome };
    } catch (error) {
      options.logger.error(
        { err: error, channel: 'ussd', gatewaySessionId: request.sessionId, reply: reply.type },
        'ussd turn failed',
      );
      return { response: { text: say('ussd.sorry'), end: true } };
    } finally {
      clearTimeout(timer);
    }
  };

  const answer = async (request: UssdRequest, reply: Reply): Promise<UssdResponse> => {
    const result = await turn(request, reply);
    if ('response' in result) return result.response;
    return show(request.msisdn, {
      gatewaySessionId: request.sessionId,
      mode: 'prompt',
      prompt: result.prompt,
      page: 0,
      locale,
    });
  };

  const dial = async (
    request: UssdRequest,
    state: UssdState | undefined,
  ): Promise<UssdResponse> => {
    if (state && state.gatewaySessionId === request.sessionId) {
      // The gateway repeated the opening request: show the same screen again.
      return show(request.msisdn, state);
    }
    const key = ussdSessionKey(request.msisdn);
    const view = options.peek ? await options.peek(key) : undefined;
    const resumable = options.peek
      ? view?.resumable === true
      : state !== undefined && !state.prompt.final;
    if (resumable) {
      return show(request.msisdn, {
        gatewaySessionId: request.sessionId,
        mode: 'resume',
        prompt: view?.prompt ??
          state?.prompt ?? { key: 'ussd.resume', input: 'choice', final: false },
        page: 0,
        locale,
      });
    }
    // A conversation not worth continuing (the entry menu) would take the dial as an answer.
    if (view) return restart(request);
    return answer(request, DIAL);
  };

  /** "Continue": the screen the conversation waits on, as the engine holds it. */
  const resume = async (request: UssdRequest, state: UssdState): Promise<UssdResponse> => {
    const view = options.peek ? await options.peek(ussdSessionKey(request.msisdn)) : undefined;
    if (options.peek && !view) return answer(request, DIAL);
    // An unseen result would swallow the caller's next answer: let the engine mark it seen.
    if (view?.unseen) return answer(request, DIAL);
    return show(request.msisdn, {
      ...state,
      mode: 'prompt',
      prompt: view?.prompt ?? state.prompt,
      page: 0,
    });
  };

  /** "Start again": end the old conversation, then dial afresh. */
  const restart = async (request: UssdRequest): Promise<UssdResponse> => {
    if (options.reset) {
      try {
        await options.reset(ussdSessionKey(request.msisdn));
      } catch (error) {
        options.logger.error(
          { err: error, channel: 'ussd', gatewaySessionId: request.sessionId },
          'ussd session reset failed',
        );
        return { text: say('ussd.sorry'), end: true };
      }
    } else {
      const cancelled = await turn(request, { type: 'user.cancel' });
      if ('response' in cancelled) return cancelled.response;
    }
    return answer(request, DIAL);
  };

  const handle = async (request: UssdRequest): Promise<UssdResponse> => {
    const state = await options.states.get(request.msisdn);
    if (request.input === undefined) return dial(request, state);
    if (!state || state.gatewaySessionId !== request.sessionId) {
      // Input for a call we hold nothing for (state expired, or a gateway that never sent the
      // dial): treat it as the dial rather than apply a keypress to a screen never shown.
      return dial(request, state);
    }
    const typed = request.input.trim();
    if (state.mode === 'resume') {
      if (typed === '1') return resume(request, state);
      if (typed === '2') return restart(request);
      return show(request.msisdn, state);
    }
    const pages = toUssdScreens(renderForUssd(state.prompt), locale).length;
    if (typed === USSD_MORE_KEY && state.page < pages - 1) {
      return show(request.msisdn, { ...state, page: state.page + 1 });
    }
    if (typed === USSD_BACK_KEY && state.page > 0) {
      return show(request.msisdn, { ...state, page: state.page - 1 });
    }
    if (state.prompt.final) {
      // Only paging keys move through a closing message; anything else shows the page again.
      return show(request.msisdn, state);
    }
    return answer(request, ussdInputToReply(typed, state.prompt, request.msisdn));
  };

  return {
    handle,
    async idle() {
      await Promise.allSettled([...running]);
    },
  };
}
