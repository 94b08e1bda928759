import {
  ClaimFileRefusedError,
  type ClaimFiles,
  claimOfPrompt,
} from '../../claim-documents/index.js';
import type { Prompt, SessionGlance, TurnRequest } from '../../conversation/index.js';
import { subjectId } from '../../privacy/index.js';
import { type GraphClient, MediaTooLargeError } from './graph-client.js';

/** A photo or document a customer sent: its media id and what WhatsApp says of it. */
export interface SentMedia {
  readonly id: string;
  readonly filename?: string | undefined;
}

/** What a {@link ClaimUpload} needs: the file, its sender, and where files go. */
export interface ClaimUploadOptions {
  readonly media: SentMedia;
  readonly waId: string;
  readonly graph: GraphClient;
  readonly claimFiles: Pick<ClaimFiles, 'keep' | 'maxFileBytes' | 'refusal'>;
}

/** A notice shown above the step: a catalogue key and its parameters. */
export interface UploadNotice {
  readonly key: string;
  readonly params?: Prompt['params'];
}

/**
 * A photo or document sent on WhatsApp, handed to the engine as the turn's `channelRequest`;
 * `whatsappEngineMiddleware` asks it under the session lock what the file means. On a step asking
 * for one it is downloaded through the media endpoint, taken by the claim files (its real type,
 * the per-file and per-claim caps; owned by the phone, so "Delete my data" finds it) and handed
 * to the flow as `user.photo`; a refused file leaves the step as it is under the refusal's words.
 * Anywhere else nothing is downloaded and the step is shown again with a hint (or the menu, when
 * no conversation is open).
 */
export class ClaimUpload {
  /** The notice to show above the answer; undefined when the file was taken. */
  lead: UploadNotice | undefined;

  constructor(private readonly options: ClaimUploadOptions) {}

  /** What the file asks of the session; undefined keeps the step as it is. */
  async requestFor(session: SessionGlance): Promise<TurnRequest | undefined> {
    const { media, graph, claimFiles, waId } = this.options;
    if (session.prompt?.input !== 'photo') {
      this.lead = { key: 'telegram.unexpectedFile' };
      return session.prompt ? undefined : { kind: 'restart' };
    }
    try {
      const { bytes } = await graph.download(media.id, claimFiles.maxFileBytes);
      const kept = await claimFiles.keep({
        bytes,
        // Named by its media id when WhatsApp gives no name (a photo).
        name: media.filename ?? media.id,
        owner: subjectId({ channel: 'whatsapp', address: waId }),
        claim: claimOfPrompt(session.prompt),
      });
      return {
        kind: 'reply',
        reply: { type: 'user.photo', url: kept.url, fileName: kept.fileName },
      };
    } catch (error) {
      const refusal =
        error instanceof MediaTooLargeError ? claimFiles.refusal('FILE_TOO_LARGE') : error;
      if (!(refusal instanceof ClaimFileRefusedError)) throw error;
      this.lead = { key: refusal.key, params: refusal.params };
      return undefined;
    }
  }
}
