// The WebAssembly modules against the seed's own JavaScript, in one node process
// (docs/wasm.md, "Against the seed's JavaScript"):
//
//   node wasm/bench/bench.mjs [--seconds S] [--rounds R] [--json FILE]
//
// The seed's blendPoses / addPose (seed/blend.js, copied unmodified from the seed package) and
// sampleSpring / sampleSpringChain (seed/spring.js: seed/spring.ts with its types erased by the
// pinned tsc, `npm run erase-types`) run on the same inputs as both modules, interleaved: every
// round times each contender once, in a rotating order, for about S / R seconds each; the
// figure is the median round (and the fastest round, the least disturbed on a shared machine, is
// reported beside it). Poses are timed already in module memory (ModulePose, zero-copy)
// and with the copy in and out of plain JavaScript Float32Arrays (blendPoses / addPose on plain
// poses). ratio = the seed's time / the contender's (> 1: faster than the seed).
import { writeFileSync } from 'node:fs';
import { blendPoses, addPose } from './seed/blend.js';
import { sampleSpring, sampleSpringChain } from './seed/spring.js';
import { loadTendon } from '../tendon.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const SECONDS = Number(opt('--seconds', '60'));
const ROUNDS = Number(opt('--rounds', '151'));
const JSON_OUT = opt('--json', null);
const ONLY = opt('--only', null); // a comma-separated list of kernel names

// ---- inputs: a seeded generator, unit quaternions, the seed benchmark's sine anchor ---------
let seed = 0x9e3779b97f4a7c15n;
function random() {
  seed ^= seed << 13n; seed &= 0xffffffffffffffffn;
  seed ^= seed >> 7n;
  seed ^= seed << 17n; seed &= 0xffffffffffffffffn;
  return Number(seed >> 11n) / 2 ** 53;
}
function randomPose(n) {
  const p = { translation: new Float32Array(3 * n), rotation: new Float32Array(4 * n),
              scale: new Float32Array(3 * n) };
  for (let i = 0; i < 3 * n; i++) {
    p.translation[i] = 20 * random() - 10;
    p.scale[i] = 0.5 + random();
  }
  for (let j = 0; j < n; j++) {
    const q = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
    const l = Math.hypot(...q);
    for (let c = 0; c < 4; c++) p.rotation[4 * j + c] = q[c] / l;
  }
  return p;
}
const TWO_PI = 2.0 * 3.141592653589793;
// bench/cases.c's sine anchor: center + amplitude·sin(2π·1 Hz·t + 0.3)
function sineAnchor(t, out) {
  const s = Math.sin(TWO_PI * t + 0.3);
  out[0] = 0.3 * s;
  out[1] = 1.5 + 0.1 * s;
  out[2] = -0.2 * s;
}
const sineBatch = {
  batch(times, out) {
    for (let i = 0; i < times.length; i++) {
      const s = Math.sin(TWO_PI * times[i] + 0.3);
      out[3 * i] = 0.3 * s;
      out[3 * i + 1] = 1.5 + 0.1 * s;
      out[3 * i + 2] = -0.2 * s;
    }
  },
};
const sineDescription = { kind: 'sine', amplitude: [0.3, 0.1, -0.2], center: [0, 1.5, 0],
                          frequencyHz: 1, phase: 0.3 };
const SETTINGS = { frequencyHz: 2, damping: 0.35 };
const LINKS = [0, 1, 2, 3].map(() => ({ frequencyHz: 2, damping: 0.35, restOffsetM: [0, -0.1, 0] }));

// ---- the contenders ---------------------------------------------------------------------------
const modules = {};
for (const flavour of ['simd128', 'scalar']) modules[flavour] = await loadTendon({ flavour });

const kernels = []; // { name, item, items, contenders: [{ name, run(reps), ... }] }

for (const n of [64, 1024]) {
  const a = randomPose(n), b = randomPose(n), out = randomPose(n);
  const delta = randomPose(n);
  for (const [op, seedFn, exact, f32, input2, w] of [
    ['blendPoses', blendPoses, 'blend', 'blendF32', b, 0.3],
    ['addPose', addPose, 'add', 'addF32', delta, 0.6],
  ]) {
    const contenders = [{ name: 'seed JS', run(reps) { for (let r = 0; r < reps; r++) seedFn(a, input2, w, out); } }];
    for (const [flavour, t] of Object.entries(modules)) {
      const ma = t.createPose(n), mb = t.createPose(n), mo = t.createPose(n);
      ma.set(a); mb.set(input2);
      const plainOut = randomPose(n);
      contenders.push(
        { name: `${flavour} exact, in module memory`, run(reps) { for (let r = 0; r < reps; r++) t[exact](ma, mb, w, mo); } },
        { name: `${flavour} exact, copy in + out`, run(reps) { for (let r = 0; r < reps; r++) t[op](a, input2, w, plainOut); } },
        { name: `${flavour} f32, in module memory`, run(reps) { for (let r = 0; r < reps; r++) t[f32](ma, mb, w, mo); } },
        { name: `${flavour} f32, copy in + out`, run(reps) {
          for (let r = 0; r < reps; r++) { ma.set(a); mb.set(input2); t[f32](ma, mb, w, mo); mo.copyTo(plainOut); }
        } },
      );
      // the exact tier gives the seed's bits: checked on these inputs
      t[exact](ma, mb, w, mo);
      seedFn(a, input2, w, out);
      for (const part of ['translation', 'rotation', 'scale']) {
        const x = new Uint32Array(mo[part].slice().buffer), y = new Uint32Array(out[part].buffer);
        for (let i = 0; i < x.length; i++)
          if (x[i] !== y[i]) throw new Error(`${op} ${n}: ${flavour} exact ${part}[${i}] differs from the seed`);
      }
    }
    kernels.push({ name: op, size: `${n} joints`, item: 'joint', items: n, contenders });
  }
}

let frame = 0;
const nextTime = () => 1.234 + (frame++ % 600) / 60;
for (const [op, call, items, size] of [
  ['sampleSpring', (t, anchor, o) => t.sampleSpring(SETTINGS, anchor, nextTime(), o), 1, '1 spring, 2 Hz, ζ 0.35'],
  ['sampleSpringChain', (t, anchor, o) => t.sampleSpringChain(LINKS, anchor, nextTime(), o), 1, '4 links'],
]) {
  const seedOut = new Float32Array(op === 'sampleSpring' ? 3 : 12);
  const seedCall = op === 'sampleSpring'
    ? () => sampleSpring(SETTINGS, sineAnchor, nextTime(), seedOut)
    : () => sampleSpringChain(LINKS, sineAnchor, nextTime(), seedOut);
  const contenders = [{ name: 'seed JS', run(reps) { for (let r = 0; r < reps; r++) seedCall(); } }];
  for (const [flavour, t] of Object.entries(modules)) {
    const o = new Float32Array(seedOut.length);
    const decl = t.createAnchor(sineDescription);
    contenders.push(
      { name: `${flavour}, JavaScript anchor`, run(reps) { for (let r = 0; r < reps; r++) call(t, sineAnchor, o); } },
      { name: `${flavour}, batched anchor`, run(reps) { for (let r = 0; r < reps; r++) call(t, sineBatch, o); } },
      { name: `${flavour}, anchor in the module`, run(reps) { for (let r = 0; r < reps; r++) call(t, decl, o); } },
    );
  }
  kernels.push({ name: op, size, item: 'sample', items, contenders });
}

if (ONLY) {
  const keep = new Set(ONLY.split(','));
  for (let i = kernels.length - 1; i >= 0; i--) if (!keep.has(kernels[i].name)) kernels.splice(i, 1);
}

// How many times a sample calls its anchor (for the per-call cost of the JavaScript anchor).
const calls = {};
for (const [op, f] of [['sampleSpring', (a) => modules.simd128.sampleSpring(SETTINGS, a, 1.234)],
                       ['sampleSpringChain', (a) => modules.simd128.sampleSpringChain(LINKS, a, 1.234)]]) {
  let count = 0;
  f((t, out) => { count++; sineAnchor(t, out); });
  calls[op] = count;
}

// ---- timing: interleaved rounds, the median round ---------------------------------------------
const all = kernels.flatMap((k) => k.contenders.map((c) => ({ k, c })));
const slice = (SECONDS / ROUNDS / all.length) * 1e9; // ns per contender per round
for (const { c } of all) { // calibrate: reps for about one slice, after a warm-up
  c.run(10);
  let reps = 1, ns = 0;
  for (;;) {
    const t0 = process.hrtime.bigint();
    c.run(reps);
    ns = Number(process.hrtime.bigint() - t0);
    if (ns > slice / 4 || reps > 1e7) break;
    reps *= 2;
  }
  c.reps = Math.max(1, Math.round(reps * slice / Math.max(ns, 1)));
  c.times = [];
}
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < all.length; i++) {
    const { c } = all[(i + round * 7) % all.length];
    const t0 = process.hrtime.bigint();
    c.run(c.reps);
    c.times.push(Number(process.hrtime.bigint() - t0) / c.reps);
  }
}
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[s.length >> 1]; };

// ---- report -----------------------------------------------------------------------------------
const report = { node: process.version, rounds: ROUNDS, seconds: SECONDS, anchorCalls: calls, kernels: [] };
console.log(`node ${process.version}; ${ROUNDS} interleaved rounds; ns per item: median round ` +
            '(fastest round); ratio = seed JS time / time, median (fastest)');
for (const k of kernels) {
  const seedNs = median(k.contenders[0].times), seedMin = Math.min(...k.contenders[0].times);
  console.log(`\n${k.name} (${k.size})`);
  const rows = [];
  for (const c of k.contenders) {
    const ns = median(c.times), lo = Math.min(...c.times);
    const row = { contender: c.name, nsPerItem: ns / k.items, nsPerItemFastest: lo / k.items,
                  nsPerCall: ns, ratio: seedNs / ns, ratioFastest: seedMin / lo };
    rows.push(row);
    console.log(`  ${c.name.padEnd(34)} ${(ns / k.items).toFixed(2).padStart(10)} ` +
                `(${(lo / k.items).toFixed(2).padStart(9)}) ns/${k.item}` +
                `  ${row.ratio.toFixed(2).padStart(7)}x (${row.ratioFastest.toFixed(2)}x)`);
  }
  report.kernels.push({ name: k.name, size: k.size, item: k.item, rows });
}
for (const op of ['sampleSpring', 'sampleSpringChain']) {
  for (const flavour of ['simd128', 'scalar']) {
    const k = report.kernels.find((x) => x.name === op);
    if (!k) continue;
    const js = k.rows.find((r) => r.contender === `${flavour}, JavaScript anchor`).nsPerCall;
    const mod = k.rows.find((r) => r.contender === `${flavour}, anchor in the module`).nsPerCall;
    const per = (js - mod) / calls[op];
    console.log(`${op}, ${flavour}: ${calls[op]} anchor calls a sample; a call into JavaScript costs ` +
                `${per.toFixed(1)} ns more than the module's own sine`);
    (report.anchorCost ??= {})[`${op} ${flavour}`] = per;
  }
}
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(report, null, 1));
