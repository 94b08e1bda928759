import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ClaimFileRefusedError, createClaimFiles } from '../../src/claim-documents/index.js';
import {
  contentDisposition,
  decodeFileName,
  documentFileName,
  fileResponseHeaders,
  readAtMost,
  sniffDocumentType,
  storedType,
} from '../../src/files/index.js';
import {
  htmlPage,
  svgImage,
  tinyJpeg,
  tinyPdf,
  tinyPng,
  windowsExecutable,
} from '../support/document-bytes.js';

describe('a document type read from its bytes', () => {
  it('knows the photos and PDFs a claim takes, and nothing else', async () => {
    expect(await sniffDocumentType(tinyJpeg())).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(await sniffDocumentType(tinyPng())).toEqual({ mime: 'image/png', ext: 'png' });
    expect(await sniffDocumentType(tinyPdf())).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    for (const bytes of [windowsExecutable(), htmlPage(), svgImage(), Buffer.alloc(0)]) {
      expect(await sniffDocumentType(bytes)).toBeUndefined();
    }
  });

  it('names a file by its real extension, made safe', () => {
    const pdf = { mime: 'application/pdf', ext: 'pdf' };
    expect(documentFileName('invoice.jpg', pdf)).toBe('invoice.pdf');
    expect(documentFileName('../../etc/passwd', pdf)).not.toMatch(/[/\\]/);
    expect(documentFileName('<script>.html', pdf)).toBe('_script_.pdf');
    expect(documentFileName('.hidden', pdf)).toBe('document.pdf');
    expect(documentFileName(undefined, pdf)).toBe('document.pdf');
    expect(documentFileName('a'.repeat(300), pdf)).toHaveLength(124);
  });

  it('decodes a percent-encoded name, and gives none for broken encoding', () => {
    expect(decodeFileName('re%C3%A7u.pdf')).toBe('reçu.pdf');
    expect(decodeFileName('%E0%A4%A')).toBeUndefined();
    expect(decodeFileName(undefined)).toBeUndefined();
  });

  it('stores the flows’ files by their bytes: a PDF as a PDF, a CSV as CSV, HTML never as HTML', async () => {
    expect(await storedType(tinyPdf(), 'application/pdf')).toBe('application/pdf');
    expect(await storedType(Buffer.from('a,b\n1,2\n'), 'text/csv')).toBe('text/csv');
    expect(await storedType(htmlPage(), 'application/pdf')).toBe('application/octet-stream');
    expect(await storedType(htmlPage(), 'text/html')).toBe('application/octet-stream');
    expect(await storedType(windowsExecutable(), 'text/csv')).toBe('application/octet-stream');
  });
});

it('reads a stream up to its limit, and stops one byte past it', async () => {
  expect(await readAtMost(Readable.from([Buffer.from('ab'), Buffer.from('c')]), 3)).toEqual(
    Buffer.from('abc'),
  );
  await expect(
    readAtMost(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 3),
  ).rejects.toThrow(RangeError);
});

describe('a served file’s headers', () => {
  it('are a download, never sniffed, sandboxed, with an ASCII name and the real one', () => {
    expect(contentDisposition('reçu "final".pdf')).toBe(
      `attachment; filename="re_u _final_.pdf"; filename*=UTF-8''re%C3%A7u%20%22final%22.pdf`,
    );
    const headers = fileResponseHeaders({ contentType: 'text/html', fileName: 'x.html', size: 3 });
    // A type from before the checks goes out as plain bytes.
    expect(headers['content-type']).toBe('application/octet-stream');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(headers['content-disposition']).toMatch(/^attachment; /);
  });
});

describe('the claim files intake', () => {
  const claim = { line: 'credit-life' as const, claimId: 'clm_1' };

  it('gives the claim its room back when the file cannot be stored', async () => {
    let fail = true;
    const files = createClaimFiles({
      files: {
        put: async () => {
          if (fail) throw new Error('disk full');
          return { id: 'f1' };
        },
        signedUrl: (id) => `https://files/${id}`,
      },
      maxFilesPerClaim: 1,
    });
    await expect(files.keep({ bytes: tinyPng(), claim })).rejects.toThrow('disk full');
    fail = false;
    const kept = await files.keep({ bytes: tinyPng(), claim });
    expect(kept).toMatchObject({ id: 'f1', fileName: 'document.png', contentType: 'image/png' });
    const full = await files.keep({ bytes: tinyPng(), claim }).catch((error: unknown) => error);
    expect(full).toBeInstanceOf(ClaimFileRefusedError);
    expect(full).toMatchObject({ code: 'CLAIM_FILES_FULL', key: 'files.refused.claimFull' });
    // Released by the caller (the insurer did not take it): the room is there again.
    await kept.release();
    expect((await files.keep({ bytes: tinyPng(), claim })).id).toBe('f1');
  });
});
