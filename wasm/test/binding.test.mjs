// The JavaScript binding itself: the loader's choice, errors thrown as TendonError with tendon's
// message, views over module memory re-made after memory.grow, dispose(), and the values at
// ±0, NaN and out of range, hand-computed, on both modules and both tiers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadTendon, simd128Supported, TendonError } from '../tendon.mjs';

const FLAVOURS = ['simd128', 'scalar'];
const bits = (x) => new Uint32Array(new Float32Array([x]).buffer)[0];

test('the loader picks the simd128 module exactly when the engine validates SIMD128', async () => {
  const simdBytes = readFileSync(new URL('../dist/tendon-simd128.wasm', import.meta.url));
  assert.equal(simd128Supported(), WebAssembly.validate(simdBytes),
               'the probe agrees with validating the SIMD module itself');
  const auto = await loadTendon();
  assert.equal(auto.flavour, simd128Supported() ? 'simd128' : 'scalar');
  assert.equal(auto.isa, auto.flavour, 'dispatch inside the module uses its best ISA');
  const scalar = await loadTendon({ flavour: 'scalar' });
  assert.equal(scalar.isa, 'scalar');
  await assert.rejects(loadTendon({ flavour: 'avx2' }), /flavour "avx2" is not auto, simd128 or scalar/);
});

for (const flavour of FLAVOURS) {
  test(`${flavour}: tendon's errors are thrown as TendonError with its message`, async () => {
    const t = await loadTendon({ flavour });
    const a = t.createPose(5), b = t.createPose(4), out = t.createPose(5);
    assert.throws(() => t.blend(a, b, 0.5, out), (e) => {
      assert.ok(e instanceof TendonError && e instanceof Error);
      assert.equal(e.statusName, 'TENDON_ERR_COUNT');
      assert.equal(e.status, 2);
      assert.equal(e.message, 'tendon_pose_blend: joint counts differ: a has 5, b has 4, out has 5; they must be equal');
      return true;
    });
    assert.throws(() => t.sampleSpring({ frequencyHz: 2, damping: 0 }, () => {}, 1),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE' &&
                         e.message.startsWith('spring: damping is 0, which never settles'));
    assert.throws(() => t.sampleSpring({ frequencyHz: -2, damping: 1 }, { kind: 'constant', value: [0, 0, 0] }, 1),
                  /^TendonError: spring: frequency_hz is -2, and a spring needs a frequency above zero/);
    assert.throws(() => t.createAnchor({ kind: 'spiral' }),
                  (e) => e instanceof TendonError && /anchor kind "spiral" is not constant, linear, sine, step or keys/.test(e.message));
    assert.throws(() => t.setJoint(a, 5, [0, 0, 0], [0, 0, 0, 1], [1, 1, 1]),
                  (e) => e.statusName === 'TENDON_ERR_RANGE' && /joint 5 is out of range: the pose has 5 joints/.test(e.message));
    // not a module pose, a disposed pose: JavaScript errors before any call
    assert.throws(() => t.blend({ translation: new Float32Array(15), rotation: new Float32Array(20),
                                  scale: new Float32Array(15) }, a, 0.5, out), TypeError);
    b.dispose();
    assert.throws(() => t.blend(a, b, 0.5, out), /this pose was disposed/);
    b.dispose(); // twice is harmless
    // the seed's functions on plain poses check the shapes
    const plain = (n) => ({ translation: new Float32Array(3 * n), rotation: new Float32Array(4 * n),
                            scale: new Float32Array(3 * n) });
    assert.throws(() => t.blendPoses(plain(2), plain(3), 0.5, plain(2)),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_COUNT');
    // an anchor that throws: the error reaches the caller
    assert.throws(() => t.sampleSpring({ frequencyHz: 2, damping: 0.5 }, () => { throw new RangeError('boom'); }, 1),
                  /boom/);
    // and the instance still works after it
    assert.deepEqual([...t.sampleSpring({ frequencyHz: 2, damping: 0.5 }, { kind: 'constant', value: [1, 2, 3] }, 1)],
                     [1, 2, 3]);
    t.dispose();
    assert.throws(() => t.createPose(1), /disposed/);
  });

  test(`${flavour}: views over module memory are re-made after memory.grow`, async () => {
    const t = await loadTendon({ flavour });
    const a = t.createPose(3), b = t.createPose(3), out = t.createPose(3);
    b.translation.set([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const before = a.translation, bytes = t.memory.buffer.byteLength;
    const big = t.createPose(1 << 20); // ~40 MB: the memory grows
    assert.ok(t.memory.buffer.byteLength > bytes, 'memory grew');
    assert.equal(before.byteLength, 0, 'the old view is detached by the growth');
    assert.equal(a.translation.length, 9, 'the pose hands out a new view');
    assert.deepEqual([...b.translation], [1, 2, 3, 4, 5, 6, 7, 8, 9], 'the data survived');
    t.blend(a, b, 0.5, out);
    assert.deepEqual([...out.translation], [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5]);
    big.dispose();
    // zero-copy: writing through the view is what the call reads
    a.translation[0] = 8;
    t.blend(a, b, 0, out);
    assert.equal(out.translation[0], 8);
  });

  test(`${flavour}: ±0, NaN and out-of-range weights, both tiers (hand-computed)`, async () => {
    const t = await loadTendon({ flavour });
    const n = 9; // a whole SIMD block (8) and a scalar tail
    const base = t.createPose(n), delta = t.createPose(n), out = t.createPose(n);
    base.translation.fill(-0);
    delta.translation.fill(1);
    // add at weight −0: w = −0 (x < 0 ? 0 : x keeps it), −0 + 1·(−0) = −0 in every lane
    for (const add of ['add', 'addF32']) {
      t[add](base, delta, -0, out);
      for (let i = 0; i < 3 * n; i++) assert.equal(bits(out.translation[i]), 0x80000000, `${add} -0, [${i}]`);
      // weight +0: −0 + 1·(+0) = +0
      t[add](base, delta, 0, out);
      for (let i = 0; i < 3 * n; i++) assert.equal(bits(out.translation[i]), 0, `${add} +0, [${i}]`);
      // a negative weight is 0: the base (−0 + 1·0 = +0), scale exactly 1·(1 + 0) = 1
      t[add](base, delta, -5, out);
      for (let i = 0; i < 3 * n; i++) assert.equal(bits(out.translation[i]), 0, `${add} -5, [${i}]`);
    }
    // blend at t = −0 from a = −0 to b = 1: −0 + (1 − (−0))·(−0) = −0; out of range clamps
    for (const blend of ['blend', 'blendF32', 'blendNlerpF32']) {
      t[blend](base, delta, -0, out);
      for (let i = 0; i < 3 * n; i++) assert.equal(bits(out.translation[i]), 0x80000000, `${blend} -0, [${i}]`);
      t[blend](base, delta, 1e30, out);
      for (let i = 0; i < 3 * n; i++) assert.equal(out.translation[i], 1, `${blend} 1e30 is b`);
      // t = −∞ clamps to the constant +0: −0 + (1 − (−0))·(+0) = −0 + +0 = +0
      t[blend](base, delta, -Infinity, out);
      for (let i = 0; i < 3 * n; i++) assert.equal(bits(out.translation[i]), 0, `${blend} -inf: +0`);
    }
    // the exact tier: a NaN weight gives NaN (from + (to − from)·NaN), a NaN mask weight too,
    // and a mask weight of 0 gives that joint the weight +0 whatever t is (even +∞, where t·0
    // would be NaN): −0 + (1 − (−0))·(+0) = +0
    t.blend(base, delta, NaN, out);
    for (let i = 0; i < 3 * n; i++) assert.ok(Number.isNaN(out.translation[i]), `blend NaN [${i}]`);
    const mask = t.createFloats(n);
    mask.array.fill(0);
    mask.array[2] = NaN;
    mask.array[5] = 1;
    t.blendMasked(base, delta, Infinity, mask, out);
    for (let j = 0; j < n; j++) {
      for (let c = 0; c < 3; c++) {
        const v = out.translation[3 * j + c];
        if (j === 2) assert.ok(Number.isNaN(v), 'NaN mask weight propagates');
        else if (j === 5) assert.equal(v, 1, 'mask 1 at t = inf: clamped to b');
        else assert.equal(bits(v), 0, `mask 0: weight +0, joint ${j}`);
      }
    }
    mask.dispose();
  });
}
