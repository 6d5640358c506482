// The binding's own bookkeeping and argument checks (the review of tendon.mjs): the long-chain
// workspace freed by the pointer malloc returned, counts and indices that do not fit wasm32's
// uint32_t refused instead of wrapping, caller buffers checked against the counts the call
// reads, wrong types refused instead of coerced, and use after dispose refused instead of
// reading freed module memory. On both modules; long chains against the native `tendon replay`
// ($TENDON_NATIVE or build/tools/tendon).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTendon, TendonError } from '../tendon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const native = process.env.TENDON_NATIVE || join(here, '..', '..', 'build', 'tools', 'tendon');
const FLAVOURS = ['simd128', 'scalar'];
const bitsOf = (a) => [...new Uint32Array(Float32Array.from(a).buffer)];

/** An assertion on a TendonError: its statusName and a message pattern. */
const tendonError = (statusName, pattern) => (e) => {
  assert.ok(e instanceof TendonError, `a TendonError, not ${e}`);
  assert.equal(e.statusName, statusName, e.message);
  assert.match(e.message, pattern);
  return true;
};

// chains of 17..40 links (above TENDON_SPRING_CHAIN_STACK_LINKS = 16: the binding mallocs the
// workspace), a linear anchor (exact in float arithmetic, evaluated alike in JavaScript and C)
const LONG = [];
for (let n = 17; n <= 40; n++) {
  LONG.push({
    id: `long-${n}`, op: 'sampleSpringChain',
    links: Array.from({ length: n }, (_, i) => ({ frequencyHz: 2 + (i % 3), damping: 0.35,
                                                  restOffsetM: [0, -0.1, 0.01 * (i % 2)] })),
    anchor: { kind: 'linear', origin: [0, 1.5, 0], velocity: [0.5, 0, -0.25] },
    time: 1.25,
  });
}

test('native tendon replay of the long chains (the oracle)', () => {
  assert.ok(existsSync(native), `the native tendon (${native}) is built`);
});

function nativeLong() {
  const out = execFileSync(native, ['replay'], { input: JSON.stringify(LONG), maxBuffer: 1 << 26,
                                                stdio: ['pipe', 'pipe', 'ignore'] });
  return new Map(JSON.parse(out.toString('utf8')).map((c) => [c.id, c.actual.out]));
}

for (const flavour of FLAVOURS) {
  test(`${flavour}: sampleSpringChain above 16 links, many calls, equals native and never traps`, async () => {
    const t = await loadTendon({ flavour });
    const expected = nativeLong();
    const anchor = (c) => (time, o) => {
      for (let k = 0; k < 3; k++) o[k] = c.anchor.origin[k] + c.anchor.velocity[k] * time;
    };
    for (let round = 0; round < 4; round++) {
      for (const c of LONG) {
        const want = bitsOf(expected.get(c.id));
        assert.equal(want.length, 3 * c.links.length);
        assert.deepEqual(bitsOf(t.sampleSpringChain(c.links, anchor(c), c.time)), want,
                         `${c.id}, round ${round}, JavaScript anchor`);
        assert.deepEqual(bitsOf(t.sampleSpringChain(c.links, c.anchor, c.time)), want,
                         `${c.id}, round ${round}, declarative anchor`);
        // poses made between the calls: the heap is still sound
        const p = t.createPose(c.links.length);
        p.dispose();
      }
    }
    // the review's repro, repeated: the same numbers every time
    const links = Array.from({ length: 17 }, () => ({ frequencyHz: 2, damping: 0.35, restOffsetM: [0, -0.1, 0] }));
    const sine = (time, o) => { o[0] = Math.sin(time); o[1] = 0; o[2] = 0; };
    const first = bitsOf(t.sampleSpringChain(links, sine, 1.25));
    for (let i = 0; i < 50; i++) assert.deepEqual(bitsOf(t.sampleSpringChain(links, sine, 1.25)), first);
  });
}
