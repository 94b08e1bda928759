import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Api, type Bot, webhookCallback } from 'grammy';
import type { Update } from 'grammy/types';
import { z } from 'zod';
import type { Logger } from '../../../log/index.js';
import { TelegramUpdateError } from './telegram-errors.js';

// Only `update_id` is checked here; grammY's filters read the rest defensively.
const UpdateEnvelope = z.looseObject({ update_id: z.number().int().nonnegative() });

/**
 * grammY's webhook adapter for fastify, with the body checked once the secret token has been:
 * a wrong token gets 401 before the body is read, a body that is no update gets 400.
 */
function fastifyAdapter(request: FastifyRequest, reply: FastifyReply) {
  const header = request.headers['x-telegram-bot-api-secret-token'];
  return {
    get update(): Update {
      const envelope = UpdateEnvelope.safeParse(request.body);
      if (!envelope.success) throw new TelegramUpdateError('not a Telegram update');
      return envelope.data as unknown as Update;
    },
    ...(typeof header === 'string' ? { header } : {}),
    end: () => void reply.send(''),
    respond: (json: string) => reply.type('application/json').send(json),
    unauthorized: () => reply.code(401).send({ error: 'unauthorized' }),
  };
}

/** What the webhook route needs. */
interface TelegramWebhookOptions {
  readonly bot: Bot;
  readonly webhookSecret: string;
  /** The turn deadline; Telegram is answered a second after it at the latest. */
  readonly deadlineMs: number;
  /** Keeps the handling of an update until `stop` waits for it. */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
  readonly log: Logger;
}

/** Adds `POST path`, Telegram's webhook: the secret checked, then the update through the bot. */
export function registerTelegramWebhook(
  fastify: FastifyInstance,
  path: string,
  options: TelegramWebhookOptions,
): void {
  const { bot, log } = options;
  let onWebhook: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | undefined;
  fastify.post(path, async (request, reply) => {
    // In polling mode updates come by getUpdates; a webhook call then has nothing to do.
    if (bot.isRunning()) return reply.code(409).send({ error: 'bot is polling' });
    // grammY's own webhook handling: the secret-token check (401, nothing read), then the
    // update through the bot; created on first use because it disables long polling.
    if (!onWebhook) {
      const callback = webhookCallback(bot, fastifyAdapter, {
        secretToken: options.webhookSecret,
        // Telegram waits; answering before a slow turn ends beats a redelivery.
        onTimeout: 'return',
        timeoutMilliseconds: options.deadlineMs + 1_000,
      });
      onWebhook = async (req, res) => {
        await callback(req, res);
      };
    }
    const handle = onWebhook;
    try {
      await options.track(handle(request, reply));
    } catch (error) {
      if (!(error instanceof TelegramUpdateError)) throw error;
      return reply.code(400).send({ error: 'not a Telegram update' });
    }
    if (reply.statusCode === 401) log.warn('telegram webhook with a wrong secret token');
    return reply;
  });
}

/** Tells Telegram to deliver the updates the bot handles to `url`, with the secret token. */
export async function setTelegramWebhook(api: Api, url: string, secret: string): Promise<void> {
  await api.setWebhook(url, {
    secret_token: secret,
    allowed_updates: ['message', 'callback_query'],
  });
}
