import type { ChatFiles } from '../conversation/index.js';
import { subjectId } from '../privacy/index.js';
import { ClaimFileRefusedError, type ClaimFiles, claimOfPrompt } from './claim-files.js';

/**
 * The claim files as the conversation's file-step policy takes a chat's photo or document: its
 * real type, the per-file and per-claim caps, owned by the chat (so "Delete my data" finds it),
 * for the claim the step asks it for. A refusal's words are every channel's.
 */
export function chatFilesOf(
  claimFiles: Pick<ClaimFiles, 'keep' | 'maxFileBytes' | 'refusal'>,
): ChatFiles {
  const noticeOf = (error: ClaimFileRefusedError) => ({ key: error.key, params: error.params });
  return {
    maxFileBytes: claimFiles.maxFileBytes,
    tooLarge: () => noticeOf(claimFiles.refusal('FILE_TOO_LARGE')),
    keep: ({ bytes, name, holder, step }) =>
      claimFiles.keep({
        bytes,
        name,
        owner: subjectId({ channel: holder.channel, address: holder.address }),
        claim: claimOfPrompt(step),
      }),
    refusalOf: (error) => (error instanceof ClaimFileRefusedError ? noticeOf(error) : undefined),
  };
}
