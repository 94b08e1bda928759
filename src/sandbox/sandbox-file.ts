/** A non-JSON answer of a stream operation (PDF document or CSV register). */
export class SandboxFile {
  constructor(
    readonly contentType: string,
    readonly filename: string,
    readonly data: Buffer | string,
  ) {}
}

/** A PDF document answer. */
export function pdfFile(filename: string, data: Buffer): SandboxFile {
  return new SandboxFile('application/pdf', filename, data);
}

/** A CSV answer. */
export function csvFile(filename: string, data: string): SandboxFile {
  return new SandboxFile('text/csv; charset=utf-8', filename, data);
}
