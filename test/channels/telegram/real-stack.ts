import { createFlowRegistry, mainMenuFlow } from '../../../flows/index.js';
import { createPartnerClient, type PartnerClient } from '../../../src/api/index.js';
import { telegramEngineMiddleware } from '../../../src/channels/telegram/index.js';
import {
  type ClaimFiles,
  chatFilesOf,
  createClaimFiles,
} from '../../../src/claim-documents/index.js';
import {
  type ConversationEngine,
  chatPolicies,
  createTurnEngine,
  type Prompt,
} from '../../../src/conversation/index.js';
import { createFileStore, type FileStore } from '../../../src/files/index.js';
import { isMenuShortcut } from '../../../src/reminders/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { MemorySessionStore } from '../../../src/session/index.js';
import { directPayments } from '../../flows/direct-payments.js';
import { silentLogger } from './test-support.js';

/** The real conversation stack over the embedded sandbox insurer, in memory. */
export interface RealStack {
  readonly engine: ConversationEngine;
  readonly sandbox: Sandbox;
  readonly files: FileStore;
  /** Claim files over `files`, as the server gives the channels. */
  readonly claimFiles: ClaimFiles;
  /** A partner client on the same sandbox, for a test to prepare records. */
  readonly client: PartnerClient;
  close(): Promise<void>;
}

/**
 * Builds sandbox → partner client → flows → turn engine, the way the server composes them, with
 * payments started once per quote and settled by the flow's own "check again".
 */
export async function createRealStack(): Promise<RealStack> {
  const sandbox = createSandbox({ settleDelayMs: 50, logger: silentLogger });
  const { url } = await sandbox.listen(0);
  const client = createPartnerClient({
    baseUrl: url,
    apiKey: sandbox.apiKey,
    logger: silentLogger,
  });
  const files = await createFileStore({ signingSecret: 'test', publicUrl: 'http://127.0.0.1:9' });
  const flows = createFlowRegistry({
    client,
    files: {
      async save(file) {
        const { id } = await files.put(file.body, {
          contentType: file.contentType,
          fileName: file.fileName,
        });
        return { url: files.signedUrl(id) };
      },
    },
    payments: directPayments(client),
  });
  const claimFiles = createClaimFiles({ files });
  // Composed as src/server composes it for Telegram: the conversation policies, then the
  // channel's engine middleware.
  const engine = createTurnEngine({
    store: new MemorySessionStore(),
    flows,
    logger: silentLogger,
  }).use(
    ...chatPolicies({
      files: chatFilesOf(claimFiles),
      shortcuts: { entryFlow: mainMenuFlow.id, isShortcut: isMenuShortcut },
      logger: silentLogger,
    }),
    telegramEngineMiddleware,
  );
  return {
    engine,
    sandbox,
    files,
    claimFiles,
    client,
    async close() {
      await engine.idle();
      engine.close();
      await client.close();
      await sandbox.close();
      await files.close();
    },
  };
}

/** Shows a Prompt's key next to its text, so a test can drive the flow by key. */
export function keyOf(text: string): string {
  return /^\[([^\]]+)\]/.exec(text)?.[1] ?? '';
}

export type { Prompt };
