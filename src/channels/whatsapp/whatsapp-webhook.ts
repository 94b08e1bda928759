import type { FastifyInstance } from 'fastify';
import type { Inbox } from '../../inbox/index.js';
import { errorName, type Logger } from '../../log/index.js';
import {
  eventsOf,
  type InboundMessage,
  type MessageStatus,
  parseWebhook,
  subscriptionChallenge,
  type TemplateStatusUpdate,
  verifySignature,
} from './cloud-api/index.js';

/** Options of {@link registerWhatsAppWebhook}. */
interface WhatsAppWebhookOptions {
  /** Where customer messages wait for their turn. */
  readonly inbox: Pick<Inbox<InboundMessage>, 'accept'>;
  readonly phoneNumberId: string;
  readonly appSecret: string;
  readonly verifyToken: string;
  readonly logger: Logger;
  /** Records a delivery status of a message we sent; it never reaches the conversation. */
  readonly recordStatus: (status: MessageStatus) => Promise<void>;
  /** Records a template's status change (the notifier reads it). */
  readonly templateStatus: (update: TemplateStatusUpdate) => Promise<void>;
  /** Told of each `failed` status once it is recorded (a template Meta could not deliver). */
  readonly failedStatus: (status: MessageStatus) => Promise<void>;
}

const PATH = '/whatsapp/webhook';
/** Largest body taken: a webhook carries a few messages, never media. */
const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Mounts the Cloud API webhook: the GET subscription check (`hub.verify_token` must match; the
 * `hub.challenge` is echoed), and POSTs whose `X-Hub-Signature-256` is the HMAC of the raw body
 * under the app secret. An unsigned or forged POST gets 401 and has no effect; a signed one is
 * answered as soon as its statuses are recorded and its messages queued.
 */
export function registerWhatsAppWebhook(
  app: FastifyInstance,
  options: WhatsAppWebhookOptions,
): void {
  const log = options.logger.child({ channel: 'whatsapp' });
  // Registered as fastify plugins are: loaded with the app, before it listens.
  void app.register(async (scope) => {
    // The signature is over the bytes Meta sent: the body is kept raw here and parsed after.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.get(PATH, async (request, reply) => {
      const challenge = subscriptionChallenge(
        request.query as Record<string, unknown>,
        options.verifyToken,
      );
      if (challenge === undefined) return reply.code(403).send({ error: 'verification failed' });
      return reply.type('text/plain').send(challenge);
    });
    scope.post(PATH, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!verifySignature(raw, request.headers['x-hub-signature-256'], options.appSecret)) {
        log.warn(
          { event: 'whatsapp.badSignature' },
          'whatsapp webhook with a missing or wrong signature',
        );
        return reply.code(401).send({ error: 'bad signature' });
      }
      const body = parseWebhook(raw);
      if (!body) return reply.code(400).send({ error: 'not a WhatsApp webhook' });
      const { messages, statuses, templates, skipped } = eventsOf(body, options.phoneNumberId);
      // Counted, never shown: an item we cannot read may still hold a customer's words.
      if (skipped > 0) log.debug({ event: 'whatsapp.skipped', skipped }, 'webhook items skipped');
      for (const status of statuses) {
        // A status not kept is a status lost; the customer messages beside it must still run.
        await options.recordStatus(status).catch((error: unknown) => {
          log.warn(
            { event: 'whatsapp.status.notRecorded', errorName: errorName(error) },
            'whatsapp status not recorded',
          );
        });
        // Its SMS fallback is not waited for: Meta gets its 200 at once.
        if (status.status === 'failed') {
          void options.failedStatus(status).catch((error: unknown) => {
            log.warn(
              { event: 'whatsapp.template.fallbackFailed', errorName: errorName(error) },
              'failed template not sent by SMS',
            );
          });
        }
      }
      for (const update of templates) {
        await options.templateStatus(update).catch((error: unknown) => {
          log.warn(
            { event: 'whatsapp.template.notRecorded', errorName: errorName(error) },
            'whatsapp template status not recorded',
          );
        });
      }
      // Queued in order, never run here: the 200 goes back at once, and a message that could not
      // be queued answers 500, so Meta redelivers the POST (those queued are then duplicates).
      for (const message of messages) await options.inbox.accept(message);
      return reply.send({ ok: true });
    });
  });
}
