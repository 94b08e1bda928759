import { z } from 'zod';
import type { Logger } from '../../log/index.js';
import type { KeyValueStore } from '../../storage/index.js';
import type { UssdRequest } from './gateway/ussd-wire.js';
import { USSD_BACK_KEY, USSD_MORE_KEY } from './ussd-screens.js';

/** A screen of several pages as shown, kept beside the call so paging asks nothing of the engine. */
const PagedScreen = z.object({
  /** The request the page on screen answered (see {@link UssdRequest.step}). */
  at: z.string(),
  /** The page on screen. */
  p: z.number().int().nonnegative(),
  /** The last page ends the call (a closing screen, or one that lets the call go). */
  end: z.boolean(),
  /** Every page, laid out in the caller's language when the engine answered. */
  pages: z.array(z.string()).min(2),
});
type PagedScreen = z.infer<typeof PagedScreen>;

/** A page answered without the engine, or the page on screen for the engine's turn. */
type PageTurn = { readonly text: string; readonly end: boolean } | { readonly onPage: number };

/** A USSD call lasts minutes at most; its paged screen is no use after it. */
const TTL_SECONDS = 300;

/**
 * The pages of the screen on a call, kept under the gateway's call id: `98 More` and `0 Back` on
 * it are answered here, with no engine call, when the gateway says which request a keypress
 * follows (its history, or its sequence number). A keypress that follows any other request (the
 * screen has changed since), or a gateway that says nothing, goes to the engine as before.
 */
export class UssdPages {
  constructor(
    private readonly store: KeyValueStore,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  /** Whether the request is a paging key the gateway placed in its call (worth a look here). */
  static mayPage(request: UssdRequest): boolean {
    const { input } = request;
    return request.step !== undefined && (input === USSD_MORE_KEY || input === USSD_BACK_KEY);
  }

  /**
   * The page a paging key asks for, answered from the kept screen (and kept as on screen). A
   * paging key that cannot move on it (past the last page, back from the first) answers the page
   * on screen as `onPage`, for the engine's turn; undefined when the keypress is not a paging key,
   * or not on that screen.
   */
  async turn(request: UssdRequest): Promise<PageTurn | undefined> {
    const { step, input } = request;
    if (!step || !UssdPages.mayPage(request)) return undefined;
    const kept = await this.read(request.sessionId);
    if (!kept) return undefined;
    let page = kept.p;
    if (kept.at !== step.id) {
      // Not the gateway's retry of the page on screen: the next keypress on it, or nothing here.
      if (kept.at !== step.follows) return undefined;
      if (input === USSD_MORE_KEY && page < kept.pages.length - 1) page += 1;
      else if (input === USSD_BACK_KEY && page > 0) page -= 1;
      // Past the last page, or back from the first (the flow's "back"): the engine's to answer.
      else return { onPage: page };
      const moved = { ...kept, at: step.id, p: page };
      try {
        await this.store.set(this.key(request.sessionId), JSON.stringify(moved), TTL_SECONDS);
      } catch (err) {
        this.logger.warn({ err, channel: 'ussd' }, 'ussd page could not be kept');
        return undefined;
      }
    }
    const last = page === kept.pages.length - 1;
    return { text: kept.pages[page] ?? '', end: kept.end && last };
  }

  /** Keeps a screen of several pages the engine answered, `page` on screen; one page keeps none. */
  async shown(request: UssdRequest, pages: string[], page: number, end: boolean): Promise<void> {
    if (!request.step || pages.length < 2) return;
    const screen: PagedScreen = { at: request.step.id, p: page, end, pages };
    try {
      await this.store.set(this.key(request.sessionId), JSON.stringify(screen), TTL_SECONDS);
    } catch (err) {
      // The engine still holds the page: paging then costs it a turn, as before.
      this.logger.warn({ err, channel: 'ussd' }, 'ussd pages could not be kept');
    }
  }

  private async read(sessionId: string): Promise<PagedScreen | undefined> {
    try {
      const text = await this.store.get(this.key(sessionId));
      if (text === undefined) return undefined;
      const parsed = PagedScreen.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch (err) {
      this.logger.warn({ err, channel: 'ussd' }, 'ussd pages could not be read');
      return undefined;
    }
  }

  private key(sessionId: string): string {
    return `${this.prefix}${sessionId}`;
  }
}
