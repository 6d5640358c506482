// The golden digest, reproduced bit for bit by both WebAssembly modules: `tendon digest` built
// for wasm32-wasi (wasm/dist/tendon-digest-<flavour>.wasm) runs every kernel's fixed workload on
// every ISA the module has — scalar in the scalar module; scalar and simd128 in the SIMD one —
// and every hash must equal the one in tests/data/golden.digest, whatever that file holds now
// (nothing is copied from it here). Checked twice: by the command's own --expect, and here, from
// its printed table against the file parsed independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDigest } from './run-digest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const top = join(here, '..', '..');
const dist = join(here, '..', 'dist');
const goldenPath = join(top, 'tests', 'data', 'golden.digest');

function readGolden() {
  const golden = new Map();
  for (const line of readFileSync(goldenPath, 'utf8').split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const [kernel, hash, extra] = t.split(/\s+/);
    assert.ok(/^[0-9a-f]{64}$/.test(hash) && extra === undefined, `golden line: ${line}`);
    golden.set(kernel, hash);
  }
  assert.ok(golden.size > 0, 'the golden file lists kernels');
  return golden;
}

for (const [flavour, isas] of [['scalar', ['scalar']], ['simd128', ['scalar', 'simd128']]]) {
  test(`golden digest: the ${flavour} module, every kernel on ${isas.join(' and ')}`, async () => {
    const wasm = join(dist, `tendon-digest-${flavour}.wasm`);
    assert.ok(existsSync(wasm), `${wasm} is built (cmake --build --preset wasm-${flavour})`);
    const golden = readGolden();
    const r = await runDigest(wasm, ['--expect', '/root/tests/data/golden.digest'], top);
    assert.equal(r.code, 0, `tendon digest --expect exited ${r.code}:\n${r.stderr}`);
    const seen = new Map();
    for (const line of r.stdout.split('\n')) {
      const m = /^(\S+)\s+(\S+)\s+([0-9a-f]{64})$/.exec(line);
      if (m) seen.set(`${m[1]} ${m[2]}`, m[3]);
    }
    for (const [kernel, hash] of golden)
      for (const isa of isas)
        assert.equal(seen.get(`${kernel} ${isa}`), hash, `${kernel} on ${isa}`);
    assert.equal(seen.size, golden.size * isas.length, 'one line per golden kernel and ISA');
    assert.match(r.stdout, /# not run: sse2 \(not compiled into this build\)/);
  });
}

// A wrong golden file must fail: the comparison can fail (one hash altered, in a copy).
test('golden digest: a golden file with one hash altered is refused, naming the kernel', async () => {
  const golden = readFileSync(goldenPath, 'utf8');
  const m = /^(pose_blend) ([0-9a-f]{64})$/m.exec(golden);
  assert.ok(m);
  const flipped = m[2].slice(0, 63) + (m[2][63] === '0' ? '1' : '0');
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'tendon-golden-'));
  try {
    writeFileSync(join(dir, 'golden.digest'), golden.replace(m[0], `${m[1]} ${flipped}`));
    const r = await runDigest(join(dist, 'tendon-digest-simd128.wasm'),
                              ['--expect', '/root/golden.digest', '--summary'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /MISMATCH pose_blend scalar: [0-9a-f]{64}, golden /);
    assert.match(r.stderr, /MISMATCH pose_blend simd128: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// clang-14's wasm backend turns `x < 0 ? 0 : x` into f64.max, which gives +0 for -0
// (src/common/max0_ref.h); f32x4/f64x2 min and max differ from the reference on NaN and ±0. None
// may be in a module: every max and clamp is a compare and a select. (The page's module,
// tendon-demo-simd128.wasm, links the same library objects as tendon-simd128.wasm, checked here;
// its one f64.max is the demo tool's own substep count for its report, max(want, 1): a max with
// a non-zero constant, exact, and not hashed.)
test('no max instruction, and no SIMD min or max, in either module', () => {
  for (const flavour of ['scalar', 'simd128']) {
    for (const name of [`tendon-${flavour}.wasm`, `tendon-digest-${flavour}.wasm`]) {
      const text = execFileSync('llvm-objdump-14', ['-d', join(dist, name)],
                                { encoding: 'utf8', maxBuffer: 1 << 28 });
      assert.ok(text.includes('f64.mul'), `${name}: the disassembly lists instructions`);
      const bad = text.match(/\b(f32|f64)\.max\b|\b(f32x4|f64x2)\.p?(min|max)\b|relaxed/g);
      assert.equal(bad, null, `${name} has ${bad && [...new Set(bad)].join(', ')}`);
    }
  }
});
