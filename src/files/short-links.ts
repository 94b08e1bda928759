import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { KeyValueStore } from '../storage/index.js';

/** The path short links are served under: `/c/<code>`. */
export const SHORT_LINK_PATH = '/c';

/** 9 random bytes: 12 base64url characters, 72 bits no one guesses. */
const CODE_BYTES = 9;
const CODE_PATTERN = /^[A-Za-z0-9_-]{12}$/;
const ONE_WEEK_SECONDS = 7 * 24 * 3600;

/** Options of {@link createShortLinks}. */
export interface ShortLinksOptions {
  /** Where each code's link is kept, with the link's own expiry (the key-value port). */
  readonly store: KeyValueStore;
  /** Prefix of its keys, e.g. `insurechat:`. */
  readonly keyPrefix: string;
  /** Base URL the short links start with, e.g. `https://bot.example.com`. */
  readonly publicUrl: string | (() => string);
  /** Clock for the expiry, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Short stand-ins for long signed links, so an SMS carrying one fits one segment: `/c/<code>`
 * redirects to the signed link while it is valid. The code is random and unguessable; the
 * signed link it leads to still checks its own signature and expiry.
 */
export interface ShortLinks {
  /** A short link to `url`, kept as long as `url`'s `exp` (seconds) says, else a week. */
  shorten(url: string): Promise<string>;
  /** The link a code stands for; undefined when unknown or expired. */
  resolve(code: string): Promise<string | undefined>;
}

/** Creates the short links over the key-value port. */
export function createShortLinks(options: ShortLinksOptions): ShortLinks {
  const now = options.now ?? Date.now;
  const keyOf = (code: string) => `${options.keyPrefix}short-link:${code}`;
  const base = () =>
    (typeof options.publicUrl === 'function' ? options.publicUrl() : options.publicUrl).replace(
      /\/+$/,
      '',
    );
  return {
    async shorten(url) {
      let exp: number;
      try {
        exp = Number(new URL(url).searchParams.get('exp') ?? Number.NaN);
      } catch {
        // Not a URL this server could redirect to: sent as it is.
        return url;
      }
      const ttlSeconds = Number.isFinite(exp) ? Math.floor(exp - now() / 1000) : ONE_WEEK_SECONDS;
      // An expired link stays as it is: it says so itself when opened.
      if (ttlSeconds <= 0) return url;
      const code = randomBytes(CODE_BYTES).toString('base64url');
      await options.store.set(keyOf(code), url, ttlSeconds);
      return `${base()}${SHORT_LINK_PATH}/${code}`;
    },
    async resolve(code) {
      if (!CODE_PATTERN.test(code)) return undefined;
      return options.store.get(keyOf(code));
    },
  };
}

/** Registers `GET /c/:code`: a redirect to the link the code stands for, 404 when none. */
export function registerShortLinkRoutes(app: FastifyInstance, links: ShortLinks): void {
  app.get<{ Params: { code: string } }>(`${SHORT_LINK_PATH}/:code`, async (request, reply) => {
    const target = await links.resolve(request.params.code);
    if (target === undefined) return reply.code(404).send({ error: 'This link is not valid.' });
    return reply.header('cache-control', 'no-store').redirect(target, 302);
  });
}
