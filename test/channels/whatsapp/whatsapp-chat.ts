import { afterAll, beforeAll, expect } from 'vitest';
import { signatureOf } from '../../../src/channels/whatsapp/index.js';
import type { ServerDeps } from '../../../src/server/index.js';
import { startTestServer, type TestServer } from '../../server/test-server.js';
import { type GraphApi, type GraphSent, startGraphApi } from '../../support/graph-api.js';

export const PHONE_NUMBER_ID = '100200300';
export const ACCESS_TOKEN = 'test-whatsapp-token';
export const APP_SECRET = 'test-whatsapp-app-secret';
export const VERIFY_TOKEN = 'test-whatsapp-verify';

/** The server's environment for WhatsApp against the local Graph API. */
export const whatsappEnv = (graph: GraphApi): Record<string, string> => ({
  WHATSAPP_API_URL: graph.url,
  WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
  WHATSAPP_ACCESS_TOKEN: ACCESS_TOKEN,
  WHATSAPP_APP_SECRET: APP_SECRET,
  WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
});

/**
 * A whole test server with WhatsApp on against a local Graph API, started before the file's
 * tests and closed after them; read `graph`, `app` and `url` inside a test.
 */
export function useWhatsAppServer(env: Record<string, string> = {}, deps: ServerDeps = {}) {
  const state = {
    /** Resolves once the server's inbox has run every queued message (retries included). */
    settled: async () => {
      await state.app.server.whatsapp?.settled();
    },
  } as { graph: GraphApi; app: TestServer; url: string; settled: () => Promise<void> };
  beforeAll(async () => {
    state.graph = await startGraphApi({
      phoneNumberId: PHONE_NUMBER_ID,
      accessToken: ACCESS_TOKEN,
    });
    state.app = await startTestServer({ ...whatsappEnv(state.graph), ...env }, deps);
    state.url = `http://127.0.0.1:${state.app.server.info.bound?.port}`;
  }, 60_000);
  afterAll(async () => {
    await state.app?.close();
    await state.graph?.close();
  }, 60_000);
  return state;
}

/** What the customer saw after one act: the texts, the choices, the links and the files. */
export interface Screen {
  readonly text: string;
  readonly choices: readonly { readonly id: string; readonly title: string }[];
  readonly kind: 'buttons' | 'list' | 'text';
  readonly links: readonly string[];
  readonly documents: readonly { readonly link: string; readonly filename: string }[];
  readonly messages: readonly GraphSent[];
}

interface Interactive {
  type: string;
  body?: { text: string };
  action: {
    buttons?: { reply: { id: string; title: string } }[];
    sections?: { rows: { id: string; title: string }[] }[];
    parameters?: { url: string };
  };
}

/** Reads what a batch of sent messages shows. */
export function screenOf(messages: readonly GraphSent[]): Screen {
  const texts: string[] = [];
  const choices: { id: string; title: string }[] = [];
  const links: string[] = [];
  const documents: { link: string; filename: string }[] = [];
  let kind: Screen['kind'] = 'text';
  for (const message of messages) {
    if (message.type === 'text') texts.push((message.text as { body: string }).body);
    if (message.type === 'document') documents.push(message.document as Screen['documents'][0]);
    if (message.type !== 'interactive') continue;
    const interactive = message.interactive as Interactive;
    if (interactive.type === 'cta_url') {
      links.push(interactive.action.parameters?.url ?? '');
      continue;
    }
    texts.push(interactive.body?.text ?? '');
    kind = interactive.type === 'button' ? 'buttons' : 'list';
    for (const button of interactive.action.buttons ?? []) choices.push(button.reply);
    for (const row of interactive.action.sections?.flatMap((section) => section.rows) ?? []) {
      choices.push(row);
    }
  }
  return { text: texts.join('\n'), choices, kind, links, documents, messages };
}

/**
 * One WhatsApp customer writing to the server: each act is a webhook POST signed with the app
 * secret, answered by what the local Graph API recorded for this number once the server's inbox
 * has run it (the webhook answers before the turn runs).
 */
export function whatsappChat(options: {
  readonly graph: GraphApi;
  readonly serverUrl: string;
  readonly waId: string;
  /** Waits for the server's queued turns (`useWhatsAppServer().settled`). */
  readonly settled: () => Promise<void>;
}) {
  const { graph, serverUrl, waId } = options;
  let counter = 0;
  const sentToMe = () => graph.sent.filter((message) => message.to === waId);

  const envelope = (field: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '260211000000', phone_number_id: PHONE_NUMBER_ID },
              ...field,
            },
          },
        ],
      },
    ],
  });

  /**
   * Posts a body as Meta would, answered as soon as the webhook answers; `signature` overrides
   * the header (null: none at all).
   */
  const postAlone = async (body: unknown, signature?: string | null): Promise<Response> => {
    const raw = JSON.stringify(body);
    const header = signature === undefined ? signatureOf(raw, APP_SECRET) : signature;
    return fetch(`${serverUrl}/whatsapp/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(header === null ? {} : { 'x-hub-signature-256': header }),
      },
      body: raw,
    });
  };
  /** Posts a body as {@link postAlone} does, then waits for the turns it queued. */
  const post = async (body: unknown, signature?: string | null): Promise<Response> => {
    const response = await postAlone(body, signature);
    await options.settled();
    return response;
  };

  const messageBody = (fields: Record<string, unknown>, id?: string) => {
    counter += 1;
    return envelope({
      contacts: [{ profile: { name: 'Mwila' }, wa_id: waId }],
      messages: [
        {
          from: waId,
          id: id ?? `wamid.in.${waId}.${counter}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          ...fields,
        },
      ],
    });
  };

  /** Sends one message and returns what the customer saw in answer. */
  const send = async (fields: Record<string, unknown>, id?: string): Promise<Screen> => {
    const before = sentToMe().length;
    const response = await post(messageBody(fields, id));
    expect(response.status).toBe(200);
    return screenOf(sentToMe().slice(before));
  };

  return {
    post,
    postAlone,
    envelope,
    messageBody,
    sent: sentToMe,
    send,
    text: (body: string) => send({ type: 'text', text: { body } }),
    /** Taps a choice of `on` whose title matches. */
    tap: (on: Screen, title: RegExp) => {
      const choice = on.choices.find((candidate) => title.test(candidate.title));
      if (!choice) throw new Error(`no choice ${title} on: ${on.text}`);
      const type = on.kind === 'list' ? 'list_reply' : 'button_reply';
      return send({ type: 'interactive', interactive: { type, [type]: choice } });
    },
    photo: (mediaId: string) =>
      send({ type: 'image', image: { id: mediaId, mime_type: 'image/jpeg', sha256: 'x' } }),
  };
}

/** A chat as {@link whatsappChat} returns it. */
export type WhatsAppChat = ReturnType<typeof whatsappChat>;
