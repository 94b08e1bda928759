import { t } from '../conversation/index.js';
import type { ClaimOnPage } from './claim-documents-routes.js';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * What the page shows: the claim (its status already in the caller's words) and its file input,
 * or why the link was refused.
 */
export type UploadPageView =
  | { readonly claim: ClaimOnPage; readonly maxBytes: number; readonly types: readonly string[] }
  | { readonly refusal: string };

/**
 * The claim documents page: a phone-sized form with a real file input (camera or files), which
 * sends each chosen file on its own and lists what was sent. Works in any phone's browser; words
 * come from the locale catalogue. Its inline script and style carry `nonce`, the one the
 * response's Content-Security-Policy allows.
 */
export function uploadPage(view: UploadPageView, locale = 'en', nonce = ''): string {
  const title = t('documents.page.title', {}, locale);
  const n = nonce ? ` nonce="${escapeHtml(nonce)}"` : '';
  const head = `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style${n}>body{font-family:sans-serif;margin:1rem;max-width:32rem}label{display:block;margin:1rem 0;padding:1rem;border:2px dashed #888;text-align:center}li{margin:.3rem 0}.bad{color:#b00}</style></head><body>`;
  if ('refusal' in view) {
    return `${head}<h1>${escapeHtml(title)}</h1><p class="bad" role="alert">${escapeHtml(view.refusal)}</p></body></html>`;
  }
  const mb = view.maxBytes / 1024 / 1024;
  const words = {
    sending: t('documents.page.sending', {}, locale),
    sent: t('documents.page.sent', {}, locale),
    kept: t('documents.page.kept', {}, locale),
    // The server's own refusals, word for word (it checks the bytes; this only saves a trip).
    tooLarge: t('files.refused.tooLarge', { mb }, locale),
    wrongType: t('files.refused.type', {}, locale),
    failed: t('documents.page.failed', {}, locale),
  };
  const script = `
const input = document.getElementById('files');
const list = document.getElementById('sent');
const status = document.getElementById('status');
const words = ${JSON.stringify(words).replace(/</g, '\\u003c')};
const types = ${JSON.stringify(view.types)};
const maxBytes = ${view.maxBytes};
input.addEventListener('change', async () => {
  for (const file of input.files) {
    const item = document.createElement('li');
    item.textContent = file.name + ': ' + words.sending;
    list.appendChild(item);
    if (file.type && !types.includes(file.type)) { item.textContent = file.name + ': ' + words.wrongType; item.className = 'bad'; continue; }
    if (file.size > maxBytes) { item.textContent = file.name + ': ' + words.tooLarge; item.className = 'bad'; continue; }
    try {
      const response = await fetch(location.pathname.replace(/\\/$/, '') + '/files' + location.search, {
        method: 'POST', headers: { 'content-type': file.type || 'application/octet-stream', 'x-file-name': encodeURIComponent(file.name) }, body: file,
      });
      const answer = await response.json();
      if (!response.ok) { item.textContent = file.name + ': ' + answer.message; item.className = 'bad'; continue; }
      item.textContent = file.name + ': ' + (answer.held ? words.kept : words.sent);
      item.className = 'sent';
      status.textContent = answer.status;
    } catch { item.textContent = file.name + ': ' + words.failed; item.className = 'bad'; }
  }
  input.value = '';
});`;
  return `${head}<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t('documents.page.claim', { number: view.claim.number }, locale))} <strong id="status">${escapeHtml(view.claim.status)}</strong></p>
<p>${escapeHtml(t('documents.page.held', { count: view.claim.documents }, locale))}</p>${
    view.claim.needed?.length
      ? `\n<p>${escapeHtml(t('documents.page.needed', { documents: view.claim.needed.join(', ') }, locale))}</p>`
      : ''
  }
<label for="files">${escapeHtml(t('documents.page.choose', { mb }, locale))}</label>
<input id="files" name="files" type="file" multiple accept="${escapeHtml(view.types.join(','))}">
<ul id="sent" aria-live="polite"></ul>
<script${n}>${script}</script></body></html>`;
}
