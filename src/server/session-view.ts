import { z } from 'zod';
import type { EngineSessionView } from '../channels/ussd/index.js';
import { Prompt } from '../conversation/prompt.js';
import type { SessionStore } from '../session/index.js';

/** The two fields of the engine's session record the USSD channel needs; the rest passes through. */
const RecordView = z.looseObject({
  flowId: z.string().optional(),
  prompt: Prompt,
  unseen: z.boolean().optional(),
});

/**
 * Read-only and reset access to the engine's sessions for the USSD channel's "Continue / Start
 * again": `peek` reads without locking, `reset` deletes under the session's lock.
 */
export function createSessionView(store: SessionStore): {
  peek(sessionKey: string): Promise<EngineSessionView | undefined>;
  reset(sessionKey: string): Promise<void>;
} {
  return {
    async peek(sessionKey) {
      const stored = await store.read(sessionKey);
      if (!stored) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(stored.data);
      } catch {
        return undefined;
      }
      const parsed = RecordView.safeParse(json);
      if (!parsed.success) return undefined;
      return {
        prompt: parsed.data.prompt,
        unseen: parsed.data.unseen ?? false,
        // Only a conversation past the entry menu is worth a "Continue".
        resumable: !parsed.data.prompt.final && parsed.data.flowId !== 'main-menu',
      };
    },
    async reset(sessionKey) {
      const acquired = await store.acquire(sessionKey, { waitMs: 2000 });
      if (acquired.status === 'busy') throw new Error('session busy; cannot start again');
      if (acquired.record) await store.remove(acquired.lease);
      else await store.release(acquired.lease);
    },
  };
}
