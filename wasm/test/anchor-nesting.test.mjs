// A JavaScript anchor function that samples a spring itself (the binding is re-entrant). Anchor
// functions reach the module through the glue's batched tables (one call out per sample, the
// function called once per time on this side), one table per nesting depth: an inner sample
// must not move or overwrite the outer sample's table while the outer fills or reads it.
//
// The reference: the outer sample's anchor times are recorded first, the inner spring is
// sampled at each of them on its own (no nesting), and the outer sample is run again with a
// function that looks those values up — the bits the nested run must give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTendon } from '../tendon.mjs';

const bits = (a) => [...new Uint32Array(new Float32Array(a).buffer)];
const OUTER = { frequencyHz: 2, damping: 0.35 };
const INNER = { frequencyHz: 3, damping: 0.5 };
const LINKS = [0, 1, 2].map((i) => ({ frequencyHz: 1.5 + i, damping: 0.4, restOffsetM: [0, -0.1, 0] }));
// longer than the outer chain (and than TENDON_SPRING_CHAIN_STACK_LINKS): a bigger output and a
// workspace of its own, allocated while the outer chain's are in use
const LONG = Array.from({ length: 20 }, (_, i) => ({ frequencyHz: 2 + 0.05 * i, damping: 0.6, restOffsetM: [0.01, -0.05, 0] }));
const sine = (t, o) => { o[0] = Math.sin(2 * Math.PI * t); o[1] = 0.5 * Math.cos(3 * t); o[2] = 0.1 * t; };

for (const flavour of ['simd128', 'scalar']) {
  for (const innerKind of ['function', 'batch', 'chain', 'long chain']) {
    test(`${flavour}: an anchor function that samples a spring (${innerKind}) inside`, async () => {
      const t = await loadTendon({ flavour });
      const inner = (tendon, time) => {
        if (innerKind === 'chain') return tendon.sampleSpringChain(LINKS, sine, time).subarray(6, 9);
        if (innerKind === 'long chain') return tendon.sampleSpringChain(LONG, sine, time).subarray(57, 60);
        const a = innerKind === 'function' ? sine : {
          batch(times, out) {
            const o = new Float32Array(3);
            for (let i = 0; i < times.length; i++) { sine(times[i], o); out.set(o, 3 * i); }
          },
        };
        return tendon.sampleSpring(INNER, a, time);
      };
      // nested, first thing on a fresh instance (its buffers as small as they start): a chain
      // whose root samples inside, then a spring whose anchor does
      const fresh = await loadTendon({ flavour });
      const gotChain = Float32Array.from(
        fresh.sampleSpringChain(LINKS, (time, o) => o.set(inner(fresh, time)), 2.0));
      let calls = 0;
      const got = Float32Array.from(
        fresh.sampleSpring(OUTER, (time, o) => { calls++; o.set(inner(fresh, time)); }, 1.25));
      // the reference: the outer times recorded, then the inner values at each on their own
      const values = new Map();
      let asked = 0;
      const record = (time, o) => { asked++; values.set(time, null); o[0] = o[1] = o[2] = 0; };
      t.sampleSpring(OUTER, record, 1.25);
      const springTimes = asked; // (the last substep's time and time_sec can be equal: not values.size)
      t.sampleSpringChain(LINKS, record, 2.0);
      assert.ok(springTimes > 50, `${springTimes} outer anchor times`);
      for (const time of values.keys()) values.set(time, Float32Array.from(inner(t, time)));
      const lookup = (time, o) => o.set(values.get(time));
      assert.equal(calls, springTimes, 'the outer function is called once per anchor time');
      assert.deepEqual(bits(got), bits(t.sampleSpring(OUTER, lookup, 1.25)));
      assert.deepEqual(bits(gotChain), bits(t.sampleSpringChain(LINKS, lookup, 2.0)));
    });
  }
}

for (const flavour of ['simd128', 'scalar']) {
  test(`${flavour}: an anchor function that grows module memory`, async () => {
    const t = await loadTendon({ flavour });
    const want = Float32Array.from(t.sampleSpring(OUTER, sine, 1.25));
    const wantChain = Float32Array.from(t.sampleSpringChain(LINKS, sine, 2.0));
    const fresh = await loadTendon({ flavour });
    const before = fresh.memory.buffer.byteLength;
    let grown = 0;
    const growing = (time, o) => {
      if (grown++ === 3) fresh.createPose(1 << 20).dispose(); // 40 MiB: memory.grow detaches views
      sine(time, o);
    };
    const got = fresh.sampleSpring(OUTER, growing, 1.25);
    assert.ok(fresh.memory.buffer.byteLength > before, 'the memory grew during the sample');
    assert.deepEqual(bits(got), bits(want));
    grown = 0;
    const before2 = fresh.memory.buffer.byteLength;
    const growingMore = (time, o) => {
      if (grown++ === 5) fresh.createPose(1 << 21).dispose();
      sine(time, o);
    };
    const gotChain = fresh.sampleSpringChain(LINKS, growingMore, 2.0);
    assert.ok(fresh.memory.buffer.byteLength > before2, 'the memory grew during the chain');
    assert.deepEqual(bits(gotChain), bits(wantChain));
  });
}

for (const flavour of ['simd128', 'scalar']) {
  test(`${flavour}: an anchor function that writes out first, then samples a spring inside`, async () => {
    const t = await loadTendon({ flavour });
    const want = Float32Array.from(t.sampleSpring(OUTER, sine, 1.25));
    // the same positions, written before an inner sample whose own anchor writes elsewhere
    const got = t.sampleSpring(OUTER, (time, o) => {
      sine(time, o);
      t.sampleSpring(INNER, (u, p) => { p[0] = 9; p[1] = 9; p[2] = 9; }, time);
    }, 1.25);
    assert.deepEqual(bits(got), bits(want));
  });
}

for (const flavour of ['simd128', 'scalar']) {
  test(`${flavour}: a NaN time asks an anchor function once per anchor time, as a finite one`, async () => {
    const t = await loadTendon({ flavour });
    const count = (time, chain) => {
      let n = 0;
      const f = (u, o) => { n++; sine(u, o); };
      if (chain) t.sampleSpringChain(LINKS, f, time); else t.sampleSpring(OUTER, f, time);
      return n;
    };
    for (const chain of [false, true]) {
      const finite = count(1.25, chain);
      assert.ok(finite > 50);
      assert.equal(count(NaN, chain), finite, chain ? 'chain' : 'spring');
      assert.equal(count(Infinity, chain), finite, chain ? 'chain, +inf' : 'spring, +inf');
    }
  });
}
