import type { Prompt } from '../../conversation/index.js';

/**
 * The one render contract every channel uses: a Prompt rendered through the catalogue
 * (`RenderPrompt`), one message key's text (`renderKey`); declared once, in src/conversation.
 */
export { type RenderPrompt, renderKey } from '../../conversation/index.js';

/**
 * The file name a document is sent under: the flow's when it gave one, otherwise
 * `<policy-number>-certificate.pdf` (chat apps show the name and type the file by its extension).
 */
export function attachmentFileName(prompt: Prompt, fileName: string | undefined): string {
  if (fileName) return fileName;
  const policyNumber = prompt.params?.policyNumber;
  const safe = String(policyNumber ?? '').replace(/[^A-Za-z0-9._-]/g, '');
  return safe ? `${safe}-certificate.pdf` : 'certificate.pdf';
}
