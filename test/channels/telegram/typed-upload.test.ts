import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type TelegramChannel,
} from '../../../src/channels/telegram/index.js';
import type { Prompt } from '../../../src/conversation/prompt.js';
import type { TurnEngine } from '../../../src/conversation/turn-engine.js';
import { TurnEngineDouble } from '../../support/turn-engine-double.js';
import { silentLogger, testRender, textUpdate } from './test-support.js';

const TOKEN = '424242:pdf-token';
const SECRET = 'pdf-webhook-secret';
const CHAT_ID = 515;
const POLICY_NUMBER = 'P-2026-000042';
const PDF_BYTES = Buffer.from('%PDF-1.4\n% a certificate, as far as this test cares\n%%EOF\n');

/** Every turn closes with the policy number and its certificate, as a paid motor flow does. */
class CertificateEngine extends TurnEngineDouble implements TurnEngine {
  constructor(private readonly certificateUrl: string) {
    super();
  }

  override async turn(): Promise<Prompt> {
    return {
      key: 'motor.done',
      params: { policyNumber: POLICY_NUMBER },
      input: 'none',
      final: true,
      attachments: [{ kind: 'document', url: this.certificateUrl, label: 'motor.certificate' }],
    };
  }
}

/** One multipart upload as the Bot API received it: the raw body and its boundary header. */
interface Upload {
  readonly contentType: string;
  readonly body: Buffer;
}

/**
 * A local Bot API that keeps each sendDocument request as it arrived (telegram-test-api has no
 * sendDocument), and the insurer's certificate link, which answers with the PDF's bytes.
 */
async function fakeBotApi(uploads: Upload[]): Promise<{ server: FastifyInstance; url: string }> {
  const server = Fastify();
  server.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_req, body, done) =>
    done(null, body),
  );
  server.get('/certificates/0f3c9a', async (_request, reply) =>
    reply.type('application/octet-stream').send(PDF_BYTES),
  );
  server.post(`/bot${TOKEN}/getMe`, async () => ({
    ok: true,
    result: { id: 1, is_bot: true, first_name: 'Bot', username: 'bot' },
  }));
  server.post(`/bot${TOKEN}/sendMessage`, async () => ({
    ok: true,
    result: { message_id: 1, date: 0, chat: { id: CHAT_ID, type: 'private' } },
  }));
  server.post(`/bot${TOKEN}/sendDocument`, async (request) => {
    uploads.push({
      contentType: String(request.headers['content-type']),
      body: request.body as Buffer,
    });
    return {
      ok: true,
      result: { message_id: 2, date: 0, chat: { id: CHAT_ID, type: 'private' } },
    };
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { server, url };
}

describe('the certificate document on Telegram', () => {
  const uploads: Upload[] = [];
  let api: { server: FastifyInstance; url: string };
  let channel: TelegramChannel;
  let webhook: FastifyInstance;

  beforeAll(async () => {
    api = await fakeBotApi(uploads);
    channel = createTelegramChannel({
      token: TOKEN,
      webhookSecret: SECRET,
      engine: new CertificateEngine(`${api.url}/certificates/0f3c9a`),
      render: testRender,
      logger: silentLogger,
      apiRoot: api.url,
      throttle: false,
    });
    webhook = Fastify();
    channel.registerWebhook(webhook);
    await webhook.ready();
    const response = await webhook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: textUpdate(CHAT_ID, 1, 'hello'),
    });
    expect(response.statusCode).toBe(200);
  });

  afterAll(async () => {
    await channel.stop();
    await webhook.close();
    await api.server.close();
  });

  it('is uploaded once as a multipart part typed application/pdf named after the policy', () => {
    expect(uploads).toHaveLength(1);
    const raw = uploads[0]?.body.toString('latin1') ?? '';
    const part =
      /content-disposition: form-data; name="document"; filename="([^"]+)"\r\ncontent-type: ([^\r]+)\r\n/i.exec(
        raw,
      );
    expect(part?.[1]).toBe(`${POLICY_NUMBER}-certificate.pdf`);
    expect(part?.[2]).toBe('application/pdf');
  });

  it('carries the certificate bytes, the chat and the caption as the Bot API reads them', async () => {
    const upload = uploads[0];
    if (!upload) throw new Error('no upload arrived');
    const form = await new Response(upload.body, {
      headers: { 'content-type': upload.contentType },
    }).formData();
    const document = form.get('document');
    if (!(document instanceof File)) throw new Error('the document part is not a file');
    expect(document.type).toBe('application/pdf');
    expect(document.name).toBe(`${POLICY_NUMBER}-certificate.pdf`);
    expect(Buffer.from(await document.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
    expect(form.get('chat_id')).toBe(String(CHAT_ID));
    expect(form.get('caption')).toBe('motor.certificate');
  });
});
