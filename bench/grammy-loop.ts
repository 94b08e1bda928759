// @grammyjs/conversations doing the same loop as the engine bench, driven in-process: updates go
// through bot.handleUpdate and every Bot API call is answered by a transformer, so no network.
import {
  type Conversation,
  type ConversationFlavor,
  conversations,
  createConversation,
  type VersionedState,
} from '@grammyjs/conversations';
import { Bot, type Context } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';

type LoopContext = ConversationFlavor<Context>;

const botInfo: UserFromGetMe = {
  id: 42,
  is_bot: true,
  first_name: 'bench',
  username: 'bench_bot',
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

/** A grammY bot whose one conversation loops forever, with JSON-serialised storage like Redis. */
export interface GrammyLoop {
  /** Sends `/start` (turn 0) for a chat. */
  start(chatId: number): Promise<void>;
  /** Sends one text message (one loop turn) for a chat. */
  turn(chatId: number, text: string): Promise<void>;
  /** Bytes of the chat's stored conversation state. */
  stateBytes(chatId: number): number;
  /** Forgets a chat's state, as a storage's expiry would, so a long run keeps a steady heap. */
  forget(chatId: number): void;
}

/** Builds the bot; every chat's state is stored as a JSON string, as a Redis adapter would. */
export function createGrammyLoop(): GrammyLoop {
  const stored = new Map<string, string>();
  let messageId = 0;
  // A fake Bot API transport: every call is answered in-process (conversations build their own
  // Api objects from the bot's client options, so a transformer on bot.api would not reach them).
  const fakeFetch = async (url: unknown, init?: { body?: unknown }) => {
    messageId += 1;
    const method = String(url).split('/').pop() ?? '';
    const payload: Record<string, unknown> =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const result =
      method === 'sendMessage'
        ? {
            message_id: messageId,
            date: 0,
            chat: { id: Number(payload.chat_id), type: 'private', first_name: 'user' },
            text: String(payload.text ?? ''),
          }
        : true;
    return new Response(JSON.stringify({ ok: true, result }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  const bot = new Bot<LoopContext>('42:bench-token', {
    botInfo,
    // biome-ignore lint/suspicious/noExplicitAny: grammY types its fetch option as node-fetch's; the fake only needs url and body.
    client: { fetch: fakeFetch as any },
  });
  bot.use(
    conversations({
      storage: {
        read: (key: string) => {
          const raw = stored.get(key);
          return raw === undefined ? undefined : (JSON.parse(raw) as VersionedState<never>);
        },
        write: (key: string, state: unknown) => {
          stored.set(key, JSON.stringify(state));
        },
        delete: (key: string) => {
          stored.delete(key);
        },
      },
    }),
  );
  async function loop(conversation: Conversation<LoopContext, Context>, ctx: Context) {
    await ctx.reply('Type a number');
    let total = 0;
    for (;;) {
      const answer = await conversation.waitFor('message:text');
      total += Number(answer.message.text) || 0;
      await answer.reply(`Total ${total}. Another number?`);
    }
  }
  bot.use(createConversation(loop, 'loop'));
  bot.command('start', (ctx) => ctx.conversation.enter('loop'));

  let updateId = 0;
  const message = (chatId: number, text: string): Update => {
    updateId += 1;
    messageId += 1;
    return {
      update_id: updateId,
      message: {
        message_id: messageId,
        date: 0,
        chat: { id: chatId, type: 'private', first_name: 'user' },
        from: { id: chatId, is_bot: false, first_name: 'user' },
        text,
        ...(text.startsWith('/')
          ? { entities: [{ type: 'bot_command' as const, offset: 0, length: text.length }] }
          : {}),
      },
    };
  };
  return {
    start: (chatId) => bot.handleUpdate(message(chatId, '/start')),
    turn: (chatId, text) => bot.handleUpdate(message(chatId, text)),
    stateBytes: (chatId) => Buffer.byteLength(stored.get(String(chatId)) ?? ''),
    forget: (chatId) => {
      stored.delete(String(chatId));
    },
  };
}
