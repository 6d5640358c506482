// Drive Debian's chromium-headless-shell over the DevTools protocol (its own
// --remote-debugging-port; node's WebSocket, `--experimental-websocket` in node 20): open a
// URL, wait until `#verdict` leaves "running", read what the page reports, take a screenshot.
// Used by browser.test.mjs; also: node --experimental-websocket wasm/page/browser.mjs URL [PNG]
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = process.env.TENDON_CHROMIUM || '/usr/bin/chromium-headless-shell';

export async function visit(url, { screenshot = null, timeoutMs = 120000 } = {}) {
  if (typeof WebSocket === 'undefined')
    throw new Error('no WebSocket in this node: run it with --experimental-websocket (node 20)');
  const profile = mkdtempSync(join(tmpdir(), 'tendon-chromium-'));
  const browser = spawn(CHROMIUM, ['--no-sandbox', '--disable-gpu', '--remote-debugging-port=0',
    `--user-data-dir=${profile}`, '--window-size=1100,1000', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true }); // its own process group
  try {
    const wsUrl = await new Promise((ok, fail) => {
      let err = '';
      const timer = setTimeout(() => fail(new Error(`chromium did not start: ${err}`)), 30000);
      browser.stderr.on('data', (d) => {
        err += d;
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m) { clearTimeout(timer); ok(m[1]); }
      });
      browser.on('exit', (code) => fail(new Error(`chromium exited (${code}): ${err}`)));
    });
    const ws = new WebSocket(wsUrl);
    await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = () => fail(new Error('DevTools socket')); });
    let next = 1;
    const pending = new Map();
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.id && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
    };
    const send = (method, params = {}, sessionId) => new Promise((ok, fail) => {
      const id = next++;
      pending.set(id, (m) => (m.error ? fail(new Error(`${method}: ${m.error.message}`)) : ok(m.result)));
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    await send('Page.enable', {}, sessionId);
    await send('Page.navigate', { url }, sessionId);
    const evaluate = async (expression) =>
      (await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)).result.value;
    const start = Date.now();
    let state;
    for (;;) {
      state = await evaluate(`(() => { const v = document.getElementById('verdict');
        return v ? v.dataset.verdict : 'loading'; })()`);
      if (state && state !== 'running' && state !== 'loading') break;
      if (Date.now() - start > timeoutMs) throw new Error(`the page is still ${state} after ${timeoutMs} ms`);
      await new Promise((ok) => setTimeout(ok, 250));
    }
    const report = await evaluate(`(() => ({
      verdict: document.getElementById('verdict').dataset.verdict,
      text: document.getElementById('verdict').textContent,
      what: document.getElementById('what').textContent,
      stages: [...document.querySelectorAll('tr[data-stage]')].map((tr) => ({
        stage: tr.dataset.stage, hash: tr.dataset.hash, native: tr.dataset.native,
        us: Number(tr.cells[1].textContent) })),
      userAgent: navigator.userAgent, isolated: self.crossOriginIsolated }))()`);
    if (screenshot) {
      const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
      writeFileSync(screenshot, Buffer.from(data, 'base64'));
    }
    ws.close();
    return report;
  } finally {
    // the browser and every process it started (its process group: the renderer, the network
    // service), so none keeps a connection to the caller's server open
    const exited = new Promise((ok) => { if (browser.exitCode !== null) ok(); else browser.on('exit', ok); });
    try { process.kill(-browser.pid, 'SIGTERM'); } catch { browser.kill('SIGTERM'); }
    await exited;
    // Chromium's helper processes can still be writing the profile (its code cache) for a
    // moment after the browser exits: retry, and never fail a test over a temporary directory.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (e) {
      console.warn(`browser: could not remove the profile ${profile}: ${e.message}`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await visit(process.argv[2], { screenshot: process.argv[3] ?? null });
  console.log(JSON.stringify(r, null, 1));
}
