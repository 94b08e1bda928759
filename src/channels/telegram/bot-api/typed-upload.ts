import { InputFile, type Transformer } from 'grammy';
import { z } from 'zod';
import { CodedError } from '../../../errors/index.js';

/** Raised when a document to upload cannot be fetched from where the flow said it is. */
class DocumentFetchError extends CodedError<'TELEGRAM_DOCUMENT_UNAVAILABLE'> {
  override readonly name = 'DocumentFetchError';
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super('TELEGRAM_DOCUMENT_UNAVAILABLE', message, options);
  }
}

/** Content types by file extension, for the documents the flows attach. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
};

/** The content type a file name says (`P-1-certificate.pdf` → `application/pdf`). */
function contentTypeOf(fileName: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/**
 * A file fetched from `url` and uploaded under `filename` with its own content type. grammY
 * (1.46, core/payload.js) writes every multipart file part as `application/octet-stream` and has
 * no option for it, so {@link typedUploads} sends calls that carry one of these itself.
 */
export class TypedInputFile extends InputFile {
  constructor(
    readonly url: URL,
    override readonly filename: string,
    readonly contentType: string = contentTypeOf(filename),
  ) {
    super(url, filename);
  }
}

/** grammY types its signal with its own shim; the platform's is what arrives. */
function abortWith(signal: unknown): { signal?: AbortSignal } {
  return signal instanceof AbortSignal ? { signal } : {};
}

// Only `ok` is relied on here; grammY reads the rest of the answer as it does its own.
const ApiAnswer = z.looseObject({ ok: z.boolean() });

/**
 * A grammY API transformer for calls carrying a {@link TypedInputFile}: the call goes out as
 * multipart form data built with `FormData`, each file part with its content type and name;
 * other calls pass on untouched. Installed first, so the throttler and auto-retry wrap it.
 */
export function typedUploads(apiRoot: string, token: string): Transformer {
  return async (prev, method, payload, signal) => {
    const fields = Object.entries((payload ?? {}) as Record<string, unknown>);
    if (!fields.some(([, value]) => value instanceof TypedInputFile)) {
      return prev(method, payload, signal);
    }
    const form = new FormData();
    for (const [name, value] of fields) {
      if (value === undefined) continue;
      if (value instanceof TypedInputFile) {
        const file = await fetch(value.url, abortWith(signal));
        if (!file.ok) throw new DocumentFetchError(`document answered ${file.status}`);
        const blob = new Blob([await file.arrayBuffer()], { type: value.contentType });
        form.append(name, blob, value.filename);
      } else {
        // As grammY sends them: objects (reply_markup, entities) as JSON, the rest as text.
        form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
      }
    }
    const response = await fetch(`${apiRoot}/bot${token}/${method}`, {
      method: 'POST',
      body: form,
      ...abortWith(signal),
    });
    const answer: unknown = ApiAnswer.parse(await response.json());
    // The Bot API's own answer, which grammY turns into a result or a GrammyError.
    return answer as Awaited<ReturnType<typeof prev<typeof method>>>;
  };
}
