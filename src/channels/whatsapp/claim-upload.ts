import type { ChannelStateHook } from '../../conversation/index.js';
import type { FileStore } from '../../files/index.js';
import { subjectId } from '../../privacy/index.js';
import { type GraphClient, MediaTooLargeError } from './graph-client.js';

/** A photo or document a customer sent: its media id and what WhatsApp says of it. */
export interface SentMedia {
  readonly id: string;
  readonly filename?: string | undefined;
}

/** What {@link claimUpload} decided, for the channel's answer: a notice above the step, if any. */
export interface ClaimUpload {
  readonly hook: ChannelStateHook;
  /** The catalogue key of the notice to show above the step; undefined when the file was taken. */
  lead(): string | undefined;
}

/**
 * Decides under the session lock what a photo or document means: on a step asking for one it is
 * downloaded through the media endpoint, kept (owned by the phone, so "Delete my data" finds
 * it) and handed to the flow as `user.photo`; anywhere else nothing is downloaded and the step
 * is shown again with a hint (or the menu, when no conversation is open).
 */
export function claimUpload(options: {
  readonly media: SentMedia;
  readonly waId: string;
  readonly graph: GraphClient;
  readonly files: Pick<FileStore, 'put' | 'signedUrl'>;
  readonly maxFileBytes: number;
}): ClaimUpload {
  const { media, graph, files } = options;
  let lead: string | undefined;
  const hook: ChannelStateHook = {
    async decide(glance) {
      if (glance.prompt?.input !== 'photo') {
        lead = 'telegram.unexpectedFile';
        return glance.prompt
          ? { kind: 'keep', state: glance.state }
          : { kind: 'restart', state: () => undefined };
      }
      try {
        const { bytes, mimeType } = await graph.download(media.id, options.maxFileBytes);
        const fileName = media.filename ?? `${media.id}.${mimeType.split('/')[1] ?? 'jpg'}`;
        const owner = subjectId({ channel: 'whatsapp', address: options.waId });
        const stored = await files.put(bytes, { contentType: mimeType, fileName, owner });
        const url = files.signedUrl(stored.id);
        return {
          kind: 'reply',
          reply: { type: 'user.photo', url, fileName },
          state: () => undefined,
        };
      } catch (error) {
        if (!(error instanceof MediaTooLargeError)) throw error;
        lead = 'telegram.fileTooLarge';
        return { kind: 'keep', state: glance.state };
      }
    },
  };
  return { hook, lead: () => lead };
}
