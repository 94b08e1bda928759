import type { SessionGlance, TurnRequest } from '../../conversation/index.js';
import type { FileStore } from '../../files/index.js';
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
  readonly files: Pick<FileStore, 'put' | 'signedUrl'>;
  readonly maxFileBytes: number;
}

/**
 * A photo or document sent on WhatsApp, handed to the engine as the turn's `channelRequest`;
 * `whatsappEngineMiddleware` asks it under the session lock what the file means. On a step asking
 * for one it is downloaded through the media endpoint, kept (owned by the phone, so "Delete my
 * data" finds it) and handed to the flow as `user.photo`; anywhere else nothing is downloaded and
 * the step is shown again with a hint (or the menu, when no conversation is open).
 */
export class ClaimUpload {
  /** The catalogue key of the notice to show above the answer; undefined when the file was taken. */
  lead: string | undefined;

  constructor(private readonly options: ClaimUploadOptions) {}

  /** What the file asks of the session; undefined keeps the step as it is. */
  async requestFor(session: SessionGlance): Promise<TurnRequest | undefined> {
    const { media, graph, files, waId, maxFileBytes } = this.options;
    if (session.prompt?.input !== 'photo') {
      this.lead = 'telegram.unexpectedFile';
      return session.prompt ? undefined : { kind: 'restart' };
    }
    try {
      const { bytes, mimeType } = await graph.download(media.id, maxFileBytes);
      const fileName = media.filename ?? `${media.id}.${mimeType.split('/')[1] ?? 'jpg'}`;
      const owner = subjectId({ channel: 'whatsapp', address: waId });
      const stored = await files.put(bytes, { contentType: mimeType, fileName, owner });
      const url = files.signedUrl(stored.id);
      return { kind: 'reply', reply: { type: 'user.photo', url, fileName } };
    } catch (error) {
      if (!(error instanceof MediaTooLargeError)) throw error;
      this.lead = 'telegram.fileTooLarge';
      return undefined;
    }
  }
}
