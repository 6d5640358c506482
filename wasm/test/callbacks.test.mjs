// Callbacks, ownership and module memory past 2 GiB (the second review of tendon.mjs): an anchor
// or a rig weight function that throws makes its call throw that exception — caught at the
// module's edge, never unwinding through it — and the instance stays sound after thousands of
// throws (before, the module's stack pointer leaked until it trapped), after a JavaScript stack
// overflow inside it, and at the nesting limit; dispose() inside a callback — of an object or of the instance —
// frees after the call; a batched anchor that grows memory is asked again on fresh
// views; objects of another instance, inherited keys ('toString') and bad chain indices are
// refused; a refused declarative anchor leaves no allocation behind; objects stored above 2 GiB
// of module memory (wasm32 pointers past 2^31) work. On both modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTendon, TendonError } from '../tendon.mjs';

const FLAVOURS = ['simd128', 'scalar'];
const bits = (a) => [...new Uint32Array(Float32Array.from(a).buffer)];
const SETTINGS = { frequencyHz: 2, damping: 0.35 };
const LINKS = [0, 1, 2].map((i) => ({ frequencyHz: 2 + i, damping: 0.4, restOffsetM: [0, -0.1, 0] }));
const sine = (s, o) => { o[0] = Math.sin(s); o[1] = 0.25; o[2] = -1; };

/** A 4-joint skeleton, two clips and a rig hanging joints 1..3 (weights from `extra`). */
function makeRig(t, extra = () => ({})) {
  const rest = {
    translation: new Float32Array([0, 0, 0, 0, 1, 0, 0, -0.25, 0, 0, -0.25, 0]),
    rotation: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
    scale: new Float32Array(12).fill(1),
  };
  const skeleton = t.createSkeleton({ parents: [-1, 0, 1, 2], rest });
  const clip = t.createClip({ jointCount: 4, tracks: [{ joint: 0, path: 'translation',
    interpolation: 'LINEAR', times: [0, 1, 2], values: [0, 0, 0, 1, 0, 0, 0, 0, 0] }] });
  const clip2 = t.createClip({ jointCount: 4, tracks: [{ joint: 0, path: 'translation',
    interpolation: 'LINEAR', times: [0, 2], values: [0, 0, 0, 0, 0, 1] }] });
  const rig = t.createSpringRig({ skeleton, chains: [{ joints: [1, 2, 3], settings: SETTINGS }],
                                  base: { clip }, blend: { clip: clip2, weight: 0.5 },
                                  ...extra(skeleton, clip, clip2) });
  return { skeleton, clip, clip2, rig };
}

for (const flavour of FLAVOURS) {
  test(`${flavour}: a throwing anchor throws out of its sample, and the instance stays sound`, async () => {
    const t = await loadTendon({ flavour });
    const single = bits(t.sampleSpring(SETTINGS, sine, 1.25));
    const chain = bits(t.sampleSpringChain(LINKS, sine, 1.25));
    const boom = new Error('boom');
    let calls = 0;
    const thrower = () => { calls++; throw boom; };
    const batchThrower = { batch() { calls++; throw boom; } };
    // 3000 throws of each kind: the module's stack leaked ~200 bytes a throw before (a trap
    // after ~2000 single-spring throws, ~140 chain throws)
    for (let n = 0; n < 3000; n++) {
      calls = 0;
      assert.throws(() => t.sampleSpring(SETTINGS, thrower, 1.25), (e) => e === boom);
      assert.equal(calls, 1, 'a failing anchor is not called again in its sample');
      assert.throws(() => t.sampleSpringChain(LINKS, batchThrower, 1.25), (e) => e === boom);
    }
    assert.deepEqual(bits(t.sampleSpring(SETTINGS, sine, 1.25)), single);
    assert.deepEqual(bits(t.sampleSpringChain(LINKS, sine, 1.25)), chain);
    // a batched anchor is still called once a sample (the glue's nesting depth came back)
    calls = 0;
    const counting = { batch(times, out) { calls++; for (let i = 0; i < times.length; i++) sine(times[i], out.subarray(3 * i)); } };
    assert.deepEqual(bits(t.sampleSpring(SETTINGS, counting, 1.25)), single);
    assert.equal(calls, 1);
    // an inner sample's failure inside an anchor reaches that anchor, which may handle it
    const nested = (s, o) => {
      assert.throws(() => t.sampleSpring(SETTINGS, thrower, s), (e) => e === boom);
      sine(s, o);
    };
    assert.deepEqual(bits(t.sampleSpring(SETTINGS, nested, 1.25)), single);
    const a = t.createPose(3), b = t.createPose(3), o = t.createPose(3);
    t.blend(a, b, 0.5, o);
    assert.deepEqual([...o.rotation], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  test(`${flavour}: a rig weight function that throws or returns a non-number, many times`, async () => {
    const t = await loadTendon({ flavour });
    let mode = 'ok';
    const { rig: r2 } = makeRig(t, (sk, c, c2) => ({ blend: { clip: c2, weight: () => {
      if (mode === 'throw') throw new RangeError('weight boom');
      return mode === 'string' ? 'x' : 0.5;
    } } }));
    const ref = bits(r2.sample(1.25, null));
    for (let n = 0; n < 3000; n++) {
      mode = n % 2 ? 'throw' : 'string';
      if (mode === 'throw')
        assert.throws(() => r2.sample(1.25, null), (e) => e instanceof RangeError && e.message === 'weight boom');
      else
        assert.throws(() => r2.sample(1.25, null), (e) => e instanceof TendonError &&
                      e.statusName === 'TENDON_ERR_VALUE' && /returned string x; expected a number/.test(e.message));
    }
    mode = 'ok';
    assert.deepEqual(bits(r2.sample(1.25, null)), ref);
  });

  test(`${flavour}: dispose() inside a callback frees after the call`, async () => {
    const t = await loadTendon({ flavour });
    const ref = bits(makeRig(t).rig.sample(1.25, null));
    for (const what of ['rig', 'clip', 'clip2', 'skeleton']) {
      let kit = null;
      kit = makeRig(t, (sk, c, c2) => ({ blend: { clip: c2, weight: () => { kit[what].dispose(); return 0.5; } } }));
      assert.deepEqual(bits(kit.rig.sample(1.25, null)), ref, `${what} disposed mid-sample`);
      assert.throws(() => kit[what]._live(), /disposed/, `${what} reads as disposed`);
      // the memory was freed after the call: the next objects reuse it and work
      assert.deepEqual(bits(makeRig(t).rig.sample(1.25, null)), ref);
    }
    // an anchor disposing a pose it does not use: freed after the sample, not during it
    const p = t.createPose(2);
    const out = t.sampleSpring(SETTINGS, (s, o) => { p.dispose(); sine(s, o); }, 1.25);
    assert.deepEqual(bits(out), bits(t.sampleSpring(SETTINGS, sine, 1.25)));
    assert.throws(() => p.rotation, /disposed/);
  });

  test(`${flavour}: the instance disposed from an anchor; a stack overflow in nested samples`, async () => {
    const t = await loadTendon({ flavour });
    const long = Array.from({ length: 17 }, () => ({ frequencyHz: 2, damping: 0.4, restOffsetM: [0, -0.1, 0] }));
    const want = bits(t.sampleSpringChain(long, sine, 1.25));
    // its scratch (the chain's output, the links) is freed after the sample, not under it
    const got = t.sampleSpringChain(long, (s, o) => { t.dispose(); sine(s, o); }, 1.25);
    assert.deepEqual(bits(got), want);
    assert.throws(() => t.createPose(1), /disposed/);
    // samples nested without end stop at the binding's limit (32: the module's 1 MiB stack)
    const u = await loadTendon({ flavour });
    const sp = u._x.__stack_pointer.value;
    let calls = 0;
    const batch = { batch(times, out) { calls++; for (let i = 0; i < times.length; i++) sine(times[i], out.subarray(3 * i)); } };
    const single = bits(u.sampleSpring(SETTINGS, batch, 1.25));
    const chain = bits(u.sampleSpringChain(long, sine, 1.25));
    let depth = 0;
    const recurse = () => { let first = true; return (s, o) => {
      if (first) { first = false; depth++; u.sampleSpringChain(long, recurse(), s); }
      sine(s, o);
    }; };
    assert.throws(() => u.sampleSpringChain(long, recurse(), 1.25),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_RANGE' && /nested 32 deep/.test(e.message));
    assert.equal(depth, 32);
    // a JavaScript stack overflow raised inside the module unwinds its frames: the binding puts
    // its stack pointer and the glue's nesting back. Near the stack's limit (on the way back
    // from a recursion to it), samples with nested anchors overflow at every point in turn.
    const nested = (s, o) => { u.sampleSpring(SETTINGS, sine, s); sine(s, o); };
    let overflows = 0, attempts = 0;
    const deep = () => {
      try { deep(); } catch (e) { if (!(e instanceof RangeError)) throw e; }
      if (attempts++ < 400)
        try { u.sampleSpring(SETTINGS, nested, 1.25); } catch (e) { if (e instanceof RangeError) overflows++; else throw e; }
    };
    deep();
    assert.ok(overflows > 0, 'some samples overflowed the stack');
    assert.equal(u._x.__stack_pointer.value, sp);
    calls = 0;
    assert.deepEqual(bits(u.sampleSpring(SETTINGS, batch, 1.25)), single);
    assert.equal(calls, 1, 'the batched anchor is asked once a sample again');
    assert.deepEqual(bits(u.sampleSpringChain(long, sine, 1.25)), chain);
  });

  test(`${flavour}: a batched anchor is called as a method, and may change during its sample`, async () => {
    const t = await loadTendon({ flavour });
    const want = bits(t.sampleSpring(SETTINGS, sine, 1.25));
    // batch() sees its object as `this`
    const anchor = { amplitude: 1, batch(times, out) {
      for (let i = 0; i < times.length; i++) { sine(times[i], out.subarray(3 * i)); out[3 * i] *= this.amplitude; }
    } };
    assert.deepEqual(bits(t.sampleSpring(SETTINGS, anchor, 1.25)), want);
    // an anchor object whose batch is replaced (or removed) during its own sample: the sample
    // closes what it opened, and the instance's bookkeeping comes back to rest
    const shifty = { batch(times, out) { delete shifty.batch; shifty.kind = 'nonsense'; anchor.batch.call(anchor, times, out); } };
    assert.deepEqual(bits(t.sampleSpring(SETTINGS, shifty, 1.25)), want);
    const shifty2 = { batch(times, out) { shifty2.batch = 42; anchor.batch.call(anchor, times, out); } };
    assert.deepEqual(bits(t.sampleSpringChain(LINKS, shifty2, 1.25)), bits(t.sampleSpringChain(LINKS, sine, 1.25)));
    assert.equal(t._calls, 0);
    assert.equal(t._anchors.length, 0);
    const p = t.createPose(4);
    p.dispose(); // freed at once again (no call in progress)
    assert.equal(t._deferred.length, 0);
    assert.throws(() => t.sampleSpring(SETTINGS, sine, 1.25, new Int8Array(3)), /sampleSpring: out is not a Float32Array/);
    assert.throws(() => t.sampleSpring(SETTINGS, sine), /timeSec is missing \(undefined\)/);
  });

  test(`${flavour}: a batched anchor that grows module memory is asked again on fresh views`, async () => {
    const t = await loadTendon({ flavour });
    const want = bits(t.sampleSpring(SETTINGS, sine, 1.25));
    const kept = [];
    let calls = 0;
    const grows = { batch(times, out) {
      calls++;
      if (kept.length === 0) kept.push(t.createFloats(4 << 20)); // 16 MB once: memory grows
      for (let i = 0; i < times.length; i++) sine(times[i], out.subarray(3 * i));
    } };
    const before = t.memory.buffer.byteLength;
    assert.deepEqual(bits(t.sampleSpring(SETTINGS, grows, 1.25)), want);
    assert.ok(t.memory.buffer.byteLength > before, 'the memory grew');
    assert.equal(calls, 2);
    // one that grows it every time is refused by name
    const always = { batch(times, out) {
      kept.push(t.createFloats(4 << 20));
      for (let i = 0; i < 3 * times.length; i++) out[i] = 0; // (lost: out is detached)
    } };
    assert.throws(() => t.sampleSpring(SETTINGS, always, 1.25),
                  (e) => e instanceof TendonError && /grew module memory during its call twice/.test(e.message));
    for (const k of kept) k.dispose();
  });

  test(`${flavour}: objects of another instance, inherited keys and bad indices are refused`, async () => {
    const A = await loadTendon({ flavour }), B = await loadTendon({ flavour });
    const skA = A.createSkeleton({ parents: [-1, 0] }), skB = B.createSkeleton({ parents: [-1, 0] });
    const binA = A.createSkinBinding(skA, [0, 1]), binB = B.createSkinBinding(skB, [0, 1]);
    const pose = B.createPose(2), model = B.createFloats(32), pal = B.createFloats(32);
    const other = /of another tendon instance/;
    assert.throws(() => B.palette(skA, binB, pose, model, pal), other);
    assert.throws(() => B.palette(skB, binA, pose, model, pal), other);
    assert.throws(() => B.createSkinBinding(skA, [0, 1]), other);
    assert.throws(() => B.createSpringRig({ skeleton: skA, chains: [] }), other);
    const clipA = A.createClip({ jointCount: 2, tracks: [] });
    assert.throws(() => B.createSpringRig({ skeleton: skB, chains: [], base: { clip: clipA } }), other);
    const anchorA = A.createAnchor({ kind: 'constant', value: [0, 1, 0] });
    assert.throws(() => B.sampleSpring(SETTINGS, anchorA, 1), other);
    assert.throws(() => B.sampleSpringChain(LINKS, anchorA, 1), other);
    // names are the tables' own keys only
    const bad = (re) => (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE' && re.test(e.message);
    for (const key of ['toString', 'constructor', 'valueOf', '__proto__']) {
      assert.throws(() => B.createClip({ jointCount: 1, tracks: [{ joint: 0, path: key, times: [0], values: [0, 0, 0] }] }), bad(/path/));
      assert.throws(() => B.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'translation', interpolation: key, times: [0], values: [0, 0, 0] }] }), bad(/interpolation/));
      assert.throws(() => B.createSpringRig({ skeleton: skB, chains: [], tier: key }), bad(/tier/));
      assert.throws(() => B.sampleSpring(SETTINGS, { kind: key }, 1), bad(/anchor kind/));
    }
    const rig = B.createSpringRig({ skeleton: skB, chains: [{ joints: [0, 1], settings: SETTINGS }] });
    assert.equal(rig.chainFirstLink(0), 0);
    assert.throws(() => rig.chainFirstLink(1), (e) => e.statusName === 'TENDON_ERR_RANGE' && /the rig has 1/.test(e.message));
    assert.throws(() => rig.chainLinks(5), (e) => e.statusName === 'TENDON_ERR_RANGE');
    assert.throws(() => B.sampleSpringChain(LINKS, sine, 1, new Uint8Array(9)), /not a Float32Array/);
    // a refused declarative anchor allocates nothing: memory stays put over many refusals
    const size = B.memory.buffer.byteLength;
    for (let i = 0; i < 20000; i++)
      assert.throws(() => B.createAnchor({ kind: 'sine', amplitude: [1, 0], frequencyHz: 1, phase: 0 }), /3 numbers/);
    assert.equal(B.memory.buffer.byteLength, size);
    // missing arguments are named, not a raw TypeError from deep inside
    assert.throws(() => B.skin(), /skin takes a job/);
    assert.throws(() => B.createSpringRig(), /createSpringRig takes/);
    assert.throws(() => B.createClip({ jointCount: 1, tracks: [null] }), /tracks\[0\] is null/);
    assert.throws(() => B.loadGltf(new Uint8Array(4), null), TendonError);
  });
}

// Past 2 GiB: wasm32 addresses above 2^31 reach JavaScript as negative i32s; every pointer the
// binding keeps or shifts is unsigned. One module (the same binding code serves both).
test('simd128: objects above 2 GiB of module memory', async () => {
  const t = await loadTendon({ flavour: 'simd128' });
  const filler = [];
  while (t.memory.buffer.byteLength < 2 ** 31 + 2 ** 26) filler.push(t.createFloats(1 << 24)); // 64 MB
  const a = t.createPose(2), b = t.createPose(2), o = t.createPose(2);
  assert.ok(o._ptr >= 2 ** 31, `a pose above 2 GiB (at ${o._ptr})`);
  b.set({ translation: [2, 4, 6, 2, 4, 6], rotation: [0, 0, 0, 1, 0, 0, 0, 1], scale: [1, 1, 1, 1, 1, 1] });
  t.blend(a, b, 0.5, o);
  assert.deepEqual([...o.translation], [1, 2, 3, 1, 2, 3]);
  const want = bits(t.sampleSpring(SETTINGS, sine, 1.25));
  const low = await loadTendon({ flavour: 'simd128' });
  assert.deepEqual(want, bits(low.sampleSpring(SETTINGS, sine, 1.25)), 'the same bits as below 2 GiB');
  assert.deepEqual(bits(t.sampleSpringChain(LINKS, sine, 1.25)), bits(low.sampleSpringChain(LINKS, sine, 1.25)));
  const clip = t.createClip({ jointCount: 2, tracks: [{ joint: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 2, 3] }] });
  clip.sample(0.5, o);
  assert.deepEqual([...o.translation.subarray(0, 3)], [0.5, 1, 1.5]);
  assert.equal(t.createSkeleton({ parents: [-1, 0], names: ['a', 'b'] }).jointCount, 2);
  assert.throws(() => t.loadGltf(new Uint8Array([0x67, 0x6c, 0x54, 0x46])), /truncated/);
  assert.equal(t.createSkinMesh({ paletteCount: 1, joints: new Uint16Array(4), weights: [1, 0, 0, 0],
                                  positions: [1, 2, 3] }).vertexCount, 1);
  for (const f of filler) f.dispose();
});
