// The page (docs/wasm.md, "The page"): `tendon demo`'s built-in character played through the
// SIMD128 module in this browser, its skinned mesh drawn from the last frame, and each stage's
// time and hash beside the native command's (/native.json, made by serve.mjs).
import { simd128Supported } from '../tendon.mjs';
import { runDemo, STAGES } from './demo.mjs';

const $ = (id) => document.getElementById(id);
const verdict = $('verdict');

function draw(skinned) {
  const canvas = $('mesh'), g = canvas.getContext('2d');
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < skinned.length; i += 3) {
    x0 = Math.min(x0, skinned[i]); x1 = Math.max(x1, skinned[i]);
    y0 = Math.min(y0, skinned[i + 1]); y1 = Math.max(y1, skinned[i + 1]);
  }
  const s = 0.9 * Math.min(canvas.width / (x1 - x0), canvas.height / (y1 - y0));
  const cx = canvas.width / 2 - s * (x0 + x1) / 2, cy = canvas.height / 2 + s * (y0 + y1) / 2;
  g.fillStyle = '#357';
  for (let i = 0; i < skinned.length; i += 3) // front view: x right, y up
    g.fillRect(cx + s * skinned[i], cy - s * skinned[i + 1], 1.2, 1.2);
}

async function main() {
  const q = new URLSearchParams(location.search);
  const vertices = Number(q.get('vertices') ?? 20000), seconds = Number(q.get('seconds') ?? 2);
  const fps = 60, frames = Math.max(1, Math.round(seconds * fps));
  if (!simd128Supported()) throw new Error('this browser has no WebAssembly SIMD128');
  const native = await (await fetch('/native.json')).json();
  const bytes = await (await fetch('../dist/tendon-demo-simd128.wasm')).arrayBuffer();
  const r = await runDemo({ bytes, vertices, frames, fps });
  $('what').textContent = `${native.character.name}: ${native.character.joints} joints, ` +
    `${native.character.vertices} vertices, ${native.character.spring_links} spring links; ` +
    `${frames} frames at ${fps} fps through the simd128 module (${navigator.userAgent}); ` +
    `native: ${native.cpu}, ${native.frames} frames` +
    `${self.crossOriginIsolated ? '' : ' (not cross-origin isolated: the clock is coarser)'}.`;
  draw(r.skinned);
  let all = true;
  const body = $('stages').tBodies[0];
  for (const stage of STAGES) {
    const hashes = native.isas.map((i) => i.stages[stage]?.sha256);
    const nativeHash = hashes[0];
    const agree = hashes.every((h) => h === nativeHash);
    const best = Math.min(...native.isas.map((i) => i.stages[stage].mean_ns_per_frame)) / 1000;
    const ok = agree && r.hashes[stage] === nativeHash && native.frames === frames;
    all &&= ok;
    const tr = body.insertRow();
    tr.dataset.stage = stage;
    tr.dataset.hash = r.hashes[stage];
    tr.dataset.native = nativeHash;
    tr.innerHTML = `<td>${stage}</td><td class="num">${r.meanUsPerFrame[stage].toFixed(1)}</td>` +
      `<td class="num">${best.toFixed(1)}</td><td><code title="${r.hashes[stage]}">${r.hashes[stage].slice(0, 24)}…</code></td>` +
      `<td><code title="${nativeHash}">${nativeHash.slice(0, 24)}…</code></td><td class="${ok ? 'match' : 'mismatch'}">${ok ? 'equal' : 'DIFFERENT'}</td>`;
  }
  verdict.dataset.verdict = all ? 'match' : 'mismatch';
  verdict.textContent = all ? `every stage's hash equals the native one (${r.wallMs.toFixed(0)} ms in all)`
                            : 'a stage differs from native: a determinism bug';
}

// Awaited at the top level: the document's load event (what a headless --dump-dom or
// --screenshot waits for) comes after the run.
try {
  await main();
} catch (e) {
  verdict.dataset.verdict = 'error';
  verdict.textContent = `error: ${e.message}`;
}
