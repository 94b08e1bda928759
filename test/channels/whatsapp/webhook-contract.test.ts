import { describe, expect, it } from 'vitest';
import { PHONE_NUMBER_ID, screenOf, useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * Issue 40: the Cloud API webhook as Meta sends it. Each status and each message type below has
 * the shape of Meta's webhook reference (messages: text, interactive, button, media, reaction,
 * system, unsupported; statuses: sent, delivered, read, failed, played, deleted, warning), and is
 * posted through the real server, signed with the app secret, beside a customer's text in the
 * same POST: every POST answers 200 and the customer's text is answered all the same.
 */

const server = useWhatsAppServer();
let numbers = 0;
/** A fresh customer for each case: its answers are read from the Graph API by its number. */
const newCustomer = () => {
  numbers += 1;
  const waId = `26097710${String(numbers).padStart(4, '0')}`;
  return {
    chat: whatsappChat({
      graph: server.graph,
      serverUrl: server.url,
      waId,
      settled: server.settled,
    }),
    waId,
  };
};
/** A customer's "Hello" as Meta delivers it. */
const hello = (waId: string, id: string) => ({
  from: waId,
  id,
  timestamp: now(),
  type: 'text',
  text: { body: 'Hello' },
});

const now = () => String(Math.floor(Date.now() / 1000));
const sha256 = 'ZTRmYTQ5OTZmODM1YjE2ZWFkNGYwNzQxZjg0MDEwMWVkM2E5OTkwYTU5NmUzNDU2';

/** A status of one of our messages, as the status webhook reference shows it. */
function status(value: string, recipient: string): Record<string, unknown> {
  const base = {
    id: `wamid.out.${value}.${recipient}`,
    status: value,
    timestamp: now(),
    recipient_id: recipient,
  };
  switch (value) {
    case 'sent':
    case 'delivered':
    case 'read':
      return {
        ...base,
        conversation: { id: 'conv-1', origin: { type: 'service' } },
        pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
      };
    case 'failed':
      return {
        ...base,
        errors: [
          {
            code: 131047,
            title: 'Re-engagement message',
            message: 'Re-engagement message',
            error_data: { details: 'Message failed to send because more than 24 hours passed.' },
          },
        ],
      };
    case 'warning':
      return {
        ...base,
        errors: [
          {
            code: 131059,
            title: 'Catalog item issue',
            message: 'Catalog item issue',
            error_data: { details: 'An item in the catalog is unavailable.' },
          },
        ],
      };
    default:
      // played (a voice message we sent was played), deleted, and whatever Meta adds next.
      return base;
  }
}

/** The parts of one inbound message of `type` (besides from, id and timestamp). */
const MESSAGE_PARTS: Readonly<Record<string, Record<string, unknown>>> = {
  text: { type: 'text', text: { body: 'Hello' } },
  image: {
    type: 'image',
    image: { caption: 'my car', mime_type: 'image/jpeg', sha256, id: 'media-contract-image' },
  },
  document: {
    type: 'document',
    document: {
      caption: 'police report',
      filename: 'report.pdf',
      mime_type: 'application/pdf',
      sha256,
      id: 'media-contract-doc',
    },
  },
  audio: {
    type: 'audio',
    audio: { mime_type: 'audio/ogg; codecs=opus', sha256, id: 'media-contract-voice', voice: true },
  },
  video: { type: 'video', video: { mime_type: 'video/mp4', sha256, id: 'media-contract-video' } },
  sticker: {
    type: 'sticker',
    sticker: { mime_type: 'image/webp', sha256, id: 'media-contract-sticker', animated: false },
  },
  location: {
    type: 'location',
    location: { latitude: -15.4167, longitude: 28.2833, name: 'Cairo Road', address: 'Lusaka' },
  },
  contacts: {
    type: 'contacts',
    contacts: [
      {
        name: { formatted_name: 'Mwila Banda', first_name: 'Mwila' },
        phones: [{ phone: '+260 97 1234567', type: 'CELL', wa_id: '260971234567' }],
      },
    ],
  },
  reaction: { type: 'reaction', reaction: { message_id: 'wamid.out.earlier', emoji: '👍' } },
  // A reaction taken back comes without its emoji.
  reactionRemoved: { type: 'reaction', reaction: { message_id: 'wamid.out.earlier' } },
  system: {
    type: 'system',
    system: {
      body: 'User Mwila changed from 260977100000 to 260977199999',
      wa_id: '260977199999',
      type: 'user_changed_number',
    },
  },
  unsupported: {
    type: 'unsupported',
    errors: [
      {
        code: 131051,
        title: 'Message type unknown',
        message: 'Message type unknown',
        error_data: { details: 'Message type is currently not supported.' },
      },
    ],
    unsupported: { type: 'edit' },
  },
  // A template's quick-reply button, with the message it answers as context.
  button: {
    type: 'button',
    context: { from: '260211000000', id: 'wamid.out.template' },
    button: { payload: 'menu.renew', text: 'Renew now' },
  },
  buttonReply: {
    type: 'interactive',
    context: { from: '260211000000', id: 'wamid.out.menu' },
    interactive: { type: 'button_reply', button_reply: { id: 'motor', title: 'Motor' } },
  },
  listReply: {
    type: 'interactive',
    context: { from: '260211000000', id: 'wamid.out.menu' },
    interactive: {
      type: 'list_reply',
      list_reply: { id: 'motor', title: 'Motor insurance', description: 'Quote and buy' },
    },
  },
  // A WhatsApp Flow's answer: interactive, but nothing a step of ours asked for.
  flowReply: {
    type: 'interactive',
    interactive: {
      type: 'nfm_reply',
      nfm_reply: { name: 'flow', body: 'Sent', response_json: '{"flow_token":"x"}' },
    },
  },
  order: {
    type: 'order',
    order: { catalog_id: '1', product_items: [{ product_retailer_id: 'p1', quantity: 1 }] },
  },
  // A type Meta has not documented yet.
  hologram: { type: 'hologram', hologram: { id: 'h1' } },
};

const STATUSES = ['sent', 'delivered', 'read', 'failed', 'played', 'deleted', 'warning', 'novel'];

describe('every status answers 200 and loses no customer message in the same POST', () => {
  for (const value of STATUSES) {
    it(`takes a "${value}" status beside a customer's text`, async () => {
      const { chat, waId } = newCustomer();
      const body = chat.envelope({
        contacts: [{ profile: { name: 'Mwila' }, wa_id: waId }],
        statuses: [status(value, waId)],
        messages: [hello(waId, `wamid.in.${value}.${waId}`)],
      });
      const response = await chat.post(body);
      expect(response.status).toBe(200);
      expect(screenOf(chat.sent()).text).toMatch(/What would you like/);
      const kept = await server.app.redis.get(
        `${server.app.prefix}whatsapp-status:{wamid.out.${value}.${waId}}`,
      );
      // The four the store knows are kept; the others are only logged.
      expect(kept).toBe(['sent', 'delivered', 'read', 'failed'].includes(value) ? value : null);
    });
  }
});

/**
 * Posts the message of `type` alone, then again (under another id) in one POST before another
 * customer's "Hello": what each customer was sent.
 */
async function postBeside(type: string) {
  const { chat, waId } = newCustomer();
  const other = newCustomer();
  const parts = MESSAGE_PARTS[type] ?? {};
  const message = { from: waId, id: `wamid.in.${type}.${waId}`, timestamp: now(), ...parts };
  // System messages come without the contacts array.
  const contacts =
    type === 'system'
      ? {}
      : {
          contacts: [
            { profile: { name: 'Mwila' }, wa_id: waId },
            { profile: { name: 'Bwalya' }, wa_id: other.waId },
          ],
        };
  const alone = await chat.post(chat.envelope({ ...contacts, messages: [message] }));
  expect(alone.status).toBe(200);
  const afterAlone = chat.sent().length;
  const both = await chat.post(
    chat.envelope({
      ...contacts,
      messages: [
        { ...message, id: `${message.id}.again` },
        hello(other.waId, `wamid.in.${other.waId}`),
      ],
    }),
  );
  expect(both.status).toBe(200);
  return {
    alone: screenOf(chat.sent().slice(0, afterAlone)),
    beside: screenOf(other.chat.sent()),
  };
}

describe('every message type answers 200 and loses no message in the same POST', () => {
  for (const type of Object.keys(MESSAGE_PARTS)) {
    it(`takes a "${type}" message and the text beside it`, async () => {
      const { beside } = await postBeside(type);
      expect(beside.text).toMatch(/What would you like/);
    });
  }
});

describe('what a customer is told for each kind of message', () => {
  for (const type of ['reaction', 'reactionRemoved', 'system', 'order', 'hologram']) {
    it(`answers nothing to a "${type}" message`, async () => {
      const { alone } = await postBeside(type);
      expect(alone.messages).toHaveLength(0);
    });
  }

  it('answers an unsupported message with one short line, never the menu', async () => {
    const { alone } = await postBeside('unsupported');
    expect(alone.messages).toHaveLength(1);
    expect(alone.kind).toBe('text');
    expect(alone.text).toBe(
      'Sorry, WhatsApp could not pass that message on to me. Please type your answer or tap a button.',
    );
    expect(alone.text).not.toMatch(/sticker/i);
  });

  for (const type of ['sticker', 'audio', 'video', 'location', 'contacts', 'flowReply']) {
    it(`says what it cannot use for a "${type}" message, and shows the step again`, async () => {
      const { alone } = await postBeside(type);
      expect(alone.text).toMatch(/^Sorry, I cannot use stickers, voice notes or locations\./);
      expect(alone.text).toMatch(/What would you like/);
    });
  }

  it('skips a message it cannot read (no sender number) and runs the one beside it', async () => {
    const { chat, waId } = newCustomer();
    const unreadable = { ...hello(waId, 'wamid.in.bsuid'), from: undefined, from_user_id: 'ZM.1' };
    const response = await chat.post(
      chat.envelope({ messages: [unreadable, hello(waId, `wamid.in.readable.${waId}`)] }),
    );
    expect(response.status).toBe(200);
    expect(screenOf(chat.sent()).text).toMatch(/What would you like/);
  });

  it('takes changes of other fields and of another number in the same POST as nothing', async () => {
    const { chat, waId } = newCustomer();
    const ours = chat.envelope({ messages: [hello(waId, `wamid.ours.${waId}`)] });
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'message_template_status_update',
              value: { event: 'PAUSED', message_template_id: 1, message_template_name: 'pay_t' },
            },
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '260211999999', phone_number_id: 'another' },
                messages: [hello(waId, `wamid.other.${waId}`)],
              },
            },
            ...ours.entry.flatMap((entry) => entry.changes),
          ],
        },
      ],
    };
    expect(PHONE_NUMBER_ID).not.toBe('another');
    const response = await chat.post(body);
    expect(response.status).toBe(200);
    // One answer: our number's message; the other number's is not ours to answer.
    expect(screenOf(chat.sent()).messages).toHaveLength(1);
  });
});
