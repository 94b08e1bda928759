import { crc32, deflateSync } from 'node:zlib';

/*
 * Claim-document fixtures made here, byte for byte: small valid files of each kind a claim takes,
 * and the disguised ones the upload paths must refuse whatever name or type they are sent with.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1×1 RGBA PNG (signature, IHDR, IDAT, IEND with their CRCs). */
export function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 255]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid 1×1 greyscale baseline JPEG (SOI, JFIF, tables, one scan, EOI). */
export function tinyJpeg(): Buffer {
  return Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  );
}

/** A valid one-page PDF with its cross-reference table. */
export function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, n) => {
    offsets.push(Buffer.byteLength(text));
    text += `${n + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(text);
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** A Windows executable's start (the `MZ` DOS header and PE stub), as sent named `invoice.jpg`. */
export function windowsExecutable(): Buffer {
  const bytes = Buffer.alloc(512);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('This program cannot be run in DOS mode.', 0x4e, 'latin1');
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}

/** An HTML page whose script would run if it were ever rendered (sent as `application/pdf`). */
export function htmlPage(): Buffer {
  return Buffer.from(
    '<!doctype html><html><body><script>document.title = "pwned"</script></body></html>',
  );
}

/** An SVG image carrying a script. */
export function svgImage(): Buffer {
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>document.title = "pwned"</script></svg>',
  );
}

/**
 * A JPEG/HTML polyglot: a real JPEG header (so it passes as a photo) followed by markup whose
 * script, if it ever ran, would call `marker` (a URL the test listens on) and set the title.
 */
export function jpegHtmlPolyglot(marker: string): Buffer {
  const html = `<html><body><script>document.title = "pwned"; fetch(${JSON.stringify(marker)});</script><img src=${JSON.stringify(marker)}></body></html>`;
  // Carried in a JPEG comment segment (FF FE, then its length), so the JPEG stays well formed.
  const comment = Buffer.from(html);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(comment.length + 2, 2);
  const jpeg = tinyJpeg();
  return Buffer.concat([jpeg.subarray(0, 20), segment, comment, jpeg.subarray(20)]);
}
