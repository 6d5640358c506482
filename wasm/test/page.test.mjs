// The page's module (dist/tendon-demo-simd128.wasm: `tendon demo`'s own demo_core.c built for
// wasm32) in node and in a real browser — Debian's chromium-headless-shell, driven over its
// DevTools protocol (wasm/page/browser.mjs) — against the native `tendon demo` of the same run:
// every stage's hash equal. The browser run leaves a screenshot at build-wasm-simd128/page.png.
// Needs node's WebSocket: run with --experimental-websocket (node 20; tools/quickstart does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDemo, STAGES } from '../page/demo.mjs';
import { serve, nativeReport } from '../page/serve.mjs';
import { visit, CHROMIUM } from '../page/browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const top = join(here, '..', '..');
const native = process.env.TENDON_NATIVE || join(top, 'build', 'tools', 'tendon');
const VERTICES = 3000, SECONDS = 0.5;

function nativeHashes(report) {
  const out = {};
  for (const stage of STAGES) {
    const hs = report.isas.map((i) => i.stages[stage].sha256);
    assert.ok(hs.every((h) => /^[0-9a-f]{64}$/.test(h) && h === hs[0]), `native ISAs agree on ${stage}`);
    out[stage] = hs[0];
  }
  return out;
}

test('the built-in character in node through the simd128 module = native tendon demo', async () => {
  const want = nativeHashes(await nativeReport(native, VERTICES, SECONDS));
  const r = await runDemo({ bytes: readFileSync(join(here, '..', 'dist', 'tendon-demo-simd128.wasm')),
                            vertices: VERTICES, frames: Math.round(SECONDS * 60), fps: 60 });
  assert.deepEqual(r.hashes, want);
  assert.ok(r.skinned.length > 3 * 1000 && r.skinned.every(Number.isFinite), 'a skinned mesh to draw');
});

test('the page in headless Chromium: every stage hash equals native, and a screenshot', async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is installed (tools/deps.txt group browser)`);
  const { server, address } = await serve({ port: 0, vertices: VERTICES, seconds: SECONDS, native });
  try {
    const shot = join(top, 'build-wasm-simd128', 'page.png');
    const r = await visit(address, { screenshot: shot, timeoutMs: 40000 });
    assert.equal(r.verdict, 'match', r.text);
    assert.match(r.userAgent, /HeadlessChrome/);
    const want = nativeHashes(await nativeReport(native, VERTICES, SECONDS));
    assert.deepEqual(Object.fromEntries(r.stages.map((s) => [s.stage, s.hash])), want,
                     'the hashes the page reports are the native ones');
    assert.ok(r.stages.every((s) => s.hash === s.native));
    const png = readFileSync(shot);
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.ok(png.length > 10000, 'a screenshot with something drawn');
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
