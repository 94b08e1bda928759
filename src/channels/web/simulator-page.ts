/** A number the simulator offers, with what the sandbox does when it pays. */
export interface SimulatorTestNumber {
  readonly number: string;
  readonly description: string;
}

/** What the simulator page is built with. */
export interface SimulatorPageOptions {
  readonly serviceCode: string;
  readonly testNumbers: readonly SimulatorTestNumber[];
  /** The number prefilled in the phone field (a sandbox success number). */
  readonly defaultNumber: string;
  /** How often the SMS inbox polls, in milliseconds. */
  readonly smsPollMs: number;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON safe to place inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The simulator's stylesheet (no build step: inlined in the page). */
const SIMULATOR_STYLE = `<style>
  :root { --ink:#1d2330; --muted:#667085; --brand:#0b7a5a; --brand-dark:#075c43; --bg:#eef2f6; --card:#fff; --line:#d9dee7; }
  * { box-sizing: border-box; }
  body { margin:0; font:15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink); background:var(--bg); }
  header { padding:20px 28px 8px; }
  header h1 { margin:0; font-size:22px; }
  header p { margin:4px 0 0; color:var(--muted); }
  main { display:flex; flex-wrap:wrap; gap:28px; padding:16px 28px 40px; align-items:flex-start; }
  .phone { width:300px; background:#1b1f27; border-radius:36px; padding:22px 16px 26px; box-shadow:0 18px 40px rgba(16,24,40,.25); }
  .speaker { width:70px; height:6px; border-radius:3px; background:#3a404c; margin:0 auto 14px; }
  .screen { background:#dfe9d8; border-radius:10px; min-height:250px; padding:12px; font:14px/1.35 ui-monospace, "SFMono-Regular", Menlo, monospace; color:#102010; display:flex; flex-direction:column; }
  .screen .bar { display:flex; justify-content:space-between; font-size:11px; color:#4b5b48; margin-bottom:8px; }
  #screen { white-space:pre-wrap; word-break:break-word; flex:1; }
  #screen.ended { color:#4b5b48; }
  .reply { display:flex; gap:6px; margin-top:10px; }
  .reply input { flex:1; min-width:0; padding:8px; border-radius:6px; border:1px solid #9fb19a; font:inherit; background:#f3f8ef; }
  .reply button, .actions button { border:0; border-radius:8px; padding:8px 12px; font:600 14px system-ui, sans-serif; cursor:pointer; }
  .keypad { display:grid; grid-template-columns:repeat(3, 1fr); gap:8px; margin-top:16px; }
  .keypad button { background:#2c323d; color:#f5f7fa; border:0; border-radius:14px; padding:10px 0; font:600 18px system-ui, sans-serif; cursor:pointer; }
  .keypad button:active { background:#3b4250; }
  .actions { display:flex; gap:8px; margin-top:14px; }
  .actions button { flex:1; }
  .call { background:#1f9d55; color:#fff; }
  .hang { background:#d64545; color:#fff; }
  .send { background:var(--brand); color:#fff; }
  button:disabled { opacity:.45; cursor:not-allowed; }
  .panel { flex:1; min-width:300px; max-width:560px; display:flex; flex-direction:column; gap:18px; }
  .card { background:var(--card); border:1px solid var(--line); border-radius:14px; padding:16px 18px; }
  .card h2 { margin:0 0 10px; font-size:16px; }
  label { display:block; font-weight:600; margin-bottom:4px; }
  .field { display:flex; gap:8px; }
  .field input { flex:1; padding:9px 10px; border:1px solid var(--line); border-radius:8px; font:inherit; }
  .hint { color:var(--muted); font-size:13px; margin:6px 0 0; }
  ul.numbers { list-style:none; margin:8px 0 0; padding:0; display:grid; gap:6px; }
  ul.numbers li { display:flex; gap:10px; align-items:baseline; }
  .test-number { background:#eef7f3; border:1px solid #bfe3d4; border-radius:6px; padding:2px 8px; cursor:pointer; }
  #sms-inbox { list-style:none; padding:0; margin:0; display:flex; flex-direction:column; gap:8px; max-height:360px; overflow:auto; }
  #sms-inbox li { background:#f3f6fb; border:1px solid var(--line); border-radius:10px; padding:8px 10px; white-space:pre-wrap; word-break:break-word; }
  #sms-inbox a { color:var(--brand-dark); word-break:break-all; }
  #sms-inbox .meta { display:block; color:var(--muted); font-size:12px; margin-bottom:2px; }
  #sms-empty { color:var(--muted); margin:0; }
  #status { font-weight:600; }
</style>`;

/** The simulator's script: dials through the USSD route and polls the SMS inbox. */
const SIMULATOR_SCRIPT = `<script>
(() => {
  const config = JSON.parse(document.getElementById('simulator-config').textContent);
  const $ = (id) => document.getElementById(id);
  const screen = $('screen'), input = $('reply-input'), send = $('send'), dial = $('dial'), hang = $('hang-up');
  const phone = $('phone-number'), status = $('status'), inbox = $('sms-inbox'), empty = $('sms-empty');
  let sessionId = null, busy = false, smsSeen = '';

  function setStatus(value) { status.textContent = value; status.dataset.status = value; }
  function setActive(active) {
    input.disabled = !active; send.disabled = !active; hang.disabled = !active; dial.disabled = active;
    phone.disabled = active;
    if (active) input.focus();
  }
  async function post(text) {
    if (busy) return;
    busy = true; send.disabled = true;
    try {
      const response = await fetch('/simulator/ussd', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId, phoneNumber: phone.value.trim(), input: text }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) { show(body.message || 'The service could not answer.', true); return; }
      show(body.text, body.end);
    } catch (error) {
      show('Network error: the simulator cannot reach the server.', true);
    } finally {
      busy = false;
      if (sessionId) send.disabled = false;
    }
  }
  function show(text, end) {
    screen.textContent = text;
    screen.classList.toggle('ended', Boolean(end));
    if (end) { sessionId = null; setActive(false); setStatus('ended'); }
    else { setStatus('active'); }
    pollSms();
  }
  dial.addEventListener('click', () => {
    if (!phone.value.trim()) { phone.focus(); return; }
    sessionId = 'sim-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 8);
    $('bar-number').textContent = phone.value.trim();
    screen.textContent = 'Dialling ' + config.serviceCode + '…';
    setActive(true); setStatus('dialling');
    post(null);
  });
  hang.addEventListener('click', () => {
    sessionId = null; setActive(false); setStatus('idle');
    screen.textContent = 'Call ended. Dial again to continue where you stopped.';
  });
  $('reply-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!sessionId) return;
    const text = input.value; input.value = '';
    post(text);
  });
  document.getElementById('keypad').addEventListener('click', (event) => {
    const key = event.target && event.target.dataset ? event.target.dataset.key : undefined;
    if (!key || input.disabled) return;
    input.value += key; input.focus();
  });
  document.querySelectorAll('.test-number').forEach((button) => button.addEventListener('click', () => {
    if (phone.disabled) return;
    phone.value = button.dataset.number; smsSeen = ''; pollSms();
  }));
  phone.addEventListener('change', () => { smsSeen = ''; pollSms(); });

  // Links in an SMS (the certificate) become clickable; everything else stays plain text.
  function linkified(text) {
    return text.split(/(https?:\\/\\/\\S+)/).map((part) => {
      if (!/^https?:\\/\\//.test(part)) return document.createTextNode(part);
      const link = document.createElement('a');
      link.href = part; link.textContent = part; link.target = '_blank'; link.rel = 'noopener';
      return link;
    });
  }
  async function pollSms() {
    const to = phone.value.trim();
    $('sms-for').textContent = to ? 'for ' + to : '';
    if (!to) return;
    try {
      const response = await fetch('/simulator/sms?to=' + encodeURIComponent(to));
      if (!response.ok) return;
      const body = await response.json();
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const signature = to + '|' + messages.map((m) => m.messageId).join(',');
      if (signature === smsSeen) return;
      smsSeen = signature;
      inbox.replaceChildren(...messages.slice().reverse().map((message) => {
        const item = document.createElement('li');
        item.dataset.testid = 'sms-message';
        const meta = document.createElement('span');
        meta.className = 'meta';
        meta.textContent = (message.from || 'insurechat') + ' · ' + new Date(message.sentAt).toLocaleTimeString();
        item.append(meta, ...linkified(message.message));
        return item;
      }));
      empty.hidden = messages.length > 0;
    } catch (error) { /* the next poll tries again */ }
  }
  setInterval(pollSms, config.smsPollMs);
  pollSms();
})();
</script>`;

/**
 * The web USSD simulator: one self-contained HTML page (vanilla JS, no build step) with a
 * phone, its keypad, the sandbox's test numbers and an SMS inbox. Element ids and `data-testid`s
 * are stable: the browser test drives them.
 */
export function renderSimulatorPage(options: SimulatorPageOptions): string {
  const numbers = options.testNumbers
    .map(
      (entry) =>
        `<li><button type="button" class="test-number" data-testid="test-number" data-number="${escapeHtml(entry.number)}"><code>${escapeHtml(entry.number)}</code></button><span>${escapeHtml(entry.description)}</span></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>insurechat · USSD simulator</title>
${SIMULATOR_STYLE}
</head>
<body>
<header>
  <h1>insurechat · USSD simulator</h1>
  <p>Dial <strong>${escapeHtml(options.serviceCode)}</strong> from any number, answer with the keypad, and read the SMS the service sends you. It runs against this server's real conversation engine and insurer.</p>
</header>
<main>
  <section class="phone" aria-label="Phone">
    <div class="speaker"></div>
    <div class="screen">
      <div class="bar"><span id="bar-number" data-testid="bar-number"></span><span id="status" data-testid="session-status" data-status="idle">idle</span></div>
      <div id="screen" data-testid="ussd-screen" aria-live="polite">Press Call to dial ${escapeHtml(options.serviceCode)}.</div>
      <form class="reply" id="reply-form" data-testid="reply-form">
        <input id="reply-input" data-testid="reply-input" inputmode="numeric" autocomplete="off" placeholder="Your answer" disabled>
        <button id="send" data-testid="send-button" class="send" type="submit" disabled>Send</button>
      </form>
    </div>
    <div class="keypad" id="keypad">
      ${['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'].map((key) => `<button type="button" data-key="${key}">${key}</button>`).join('')}
    </div>
    <div class="actions">
      <button id="dial" data-testid="dial-button" class="call" type="button">Call</button>
      <button id="hang-up" data-testid="hangup-button" class="hang" type="button" disabled>End</button>
    </div>
  </section>
  <section class="panel">
    <div class="card">
      <h2>Your phone</h2>
      <label for="phone-number">Phone number</label>
      <div class="field"><input id="phone-number" data-testid="phone-number" value="${escapeHtml(options.defaultNumber)}" autocomplete="off"></div>
      <p class="hint">Sandbox test numbers choose how a mobile-money payment ends:</p>
      <ul class="numbers" data-testid="test-numbers">${numbers}</ul>
    </div>
    <div class="card">
      <h2>SMS inbox <span class="hint" id="sms-for"></span></h2>
      <p id="sms-empty" data-testid="sms-empty">No messages yet.</p>
      <ul id="sms-inbox" data-testid="sms-inbox"></ul>
    </div>
  </section>
</main>
<script id="simulator-config" type="application/json">${scriptJson({ serviceCode: options.serviceCode, smsPollMs: options.smsPollMs })}</script>
${SIMULATOR_SCRIPT}
</body>
</html>`;
}
