import type { Prompt } from '../prompt.js';
import type { ChannelName } from '../turn-engine.js';
import type { TurnMiddleware } from '../turn-middleware.js';
import { type ChatNotice, chatUpdateOf, FileTooLargeError } from './chat-update.js';
import { noticeOnly, showStep } from './show-step.js';

/** Where files a step asks for go (src/server builds it over the claim files). */
export interface ChatFiles {
  /** Largest file taken, in bytes: a bigger one is never read. */
  readonly maxFileBytes: number;
  /** The words of refusing a file over {@link maxFileBytes}. */
  tooLarge(): ChatNotice;
  /**
   * Keeps a file for the step that asked for it (checked by its bytes, capped per claim), owned
   * by the user; throws when refused.
   */
  keep(file: {
    readonly bytes: Uint8Array;
    readonly name: string | undefined;
    readonly holder: { readonly channel: ChannelName; readonly address: string };
    readonly step: Prompt;
  }): Promise<{ readonly url: string; readonly fileName?: string | undefined }>;
  /** The words of a refusal `keep` (or a read) threw; undefined for any other error. */
  refusalOf(error: unknown): ChatNotice | undefined;
}

/**
 * The "does this step take a file?" policy, one home for every chat channel: a file goes to the
 * flow as `user.photo` only on a step asking for one, read (downloaded) then and only then, under
 * the session lock, in the update's one engine call; elsewhere nothing is read and the step is
 * shown again with a hint. A refused file (its type, its size, the claim full) leaves the step as
 * it is under the refusal's words. A file taken with more of its sending waiting behind it
 * (`filesBehind`) is answered with nothing while the step still takes photos: the last one shows
 * it, once. Also answers what asks nothing of the flow: a look at the step
 * (`look`, the step again) and a `notice` (its line alone).
 */
export function fileStepPolicy(files: ChatFiles | undefined): TurnMiddleware {
  return async (context, next) => {
    const update = chatUpdateOf(context.options);
    if (!update) return next();
    const { input } = update;
    const repeat = update.options.repeatStep;
    if (input.kind === 'look') {
      const lead = input.lead === undefined ? undefined : { key: input.lead };
      return showStep(context, next, update, { lead, hint: input.hint === true, menu: repeat });
    }
    if (input.kind === 'notice') return noticeOnly(update, { key: input.key });
    if (input.kind !== 'file') return next();
    if (!files) return noticeOnly(update, { key: 'chat.filesUnavailable' });
    const step = context.session.prompt;
    if (step?.input !== 'photo') {
      const lead = { key: 'chat.unexpectedFile' };
      return showStep(context, next, update, { lead, hint: true, menu: repeat });
    }
    const refuse = (refusal: ChatNotice) =>
      repeat
        ? showStep(context, next, update, { lead: refusal, menu: true })
        : noticeOnly(update, refusal);
    // The platform says the size first: a file over the limit is never read.
    if ((input.file.size ?? 0) > files.maxFileBytes) return refuse(files.tooLarge());
    let kept: { readonly url: string; readonly fileName?: string | undefined };
    try {
      const read = await input.file.read(files.maxFileBytes);
      kept = await files.keep({
        bytes: read.bytes,
        name: input.file.name ?? read.name,
        holder: { channel: update.options.channel, address: update.options.address },
        step,
      });
    } catch (error) {
      const refusal =
        error instanceof FileTooLargeError ? files.tooLarge() : files.refusalOf(error);
      if (!refusal) throw error;
      return refuse(refusal);
    }
    context.request = {
      kind: 'reply',
      reply: {
        type: 'user.photo',
        url: kept.url,
        ...(kept.fileName === undefined ? {} : { fileName: kept.fileName }),
      },
    };
    const answer = await next();
    // Several photos sent at once come one update each, in order: while the step still takes
    // photos and another waits, showing it would repeat it once per photo, so only the last of
    // them answers (its count says how many were taken). Issue 40.
    if (!answer.final && answer.input === 'photo' && (await update.options.filesBehind?.())) {
      update.answer = 'none';
    }
    return answer;
  };
}
