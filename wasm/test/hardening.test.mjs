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

const identity = (n) => ({ translation: new Float32Array(3 * n), scale: new Float32Array(3 * n).fill(1),
                           rotation: new Float32Array(4 * n).map((_, i) => (i % 4 === 3 ? 1 : 0)) });

for (const flavour of FLAVOURS) {
  test(`${flavour}: counts and indices of 2^32 and more are refused, not wrapped to 32 bits`, async () => {
    const t = await loadTendon({ flavour });
    const count = /is 4294967297; expected a whole number in \[0, 4294967295\]/;
    assert.throws(() => t.createPose(2 ** 32 + 1), tendonError('TENDON_ERR_COUNT', /createPose: jointCount/));
    assert.throws(() => t.createPose(2 ** 32 + 1), tendonError('TENDON_ERR_COUNT', count));
    for (const bad of [2 ** 32, -1, 1.5, NaN, Infinity, '3', undefined])
      assert.throws(() => t.createPose(bad), tendonError('TENDON_ERR_COUNT', /createPose: jointCount/), String(bad));
    // 2^32 − 1 reaches the library whole: its own refusal (the bytes overflow wasm32's size_t)
    assert.throws(() => t.createPose(2 ** 32 - 1),
                  (e) => e instanceof TendonError && /4294967295/.test(e.message) &&
                         ['TENDON_ERR_OVERFLOW', 'TENDON_ERR_NOMEM'].includes(e.statusName));
    // allocation sizes: 2^30 floats are 2^32 bytes, which would wrap to a 0-byte block
    assert.throws(() => t.createFloats(2 ** 30), tendonError('TENDON_ERR_COUNT', /createFloats: count is 1073741824; expected .* in \[0, 1073741823\]/));
    assert.throws(() => t.createFloats(2 ** 32 + 1), tendonError('TENDON_ERR_COUNT', /createFloats: count/));
    assert.throws(() => t.createU16(2 ** 31), tendonError('TENDON_ERR_COUNT', /createU16: count is 2147483648; expected .* in \[0, 2147483647\]/));
    assert.throws(() => t.createU16(-3), tendonError('TENDON_ERR_COUNT', /createU16: count/));
    // setJoint at 2^32 would write joint 0
    const pose = t.createPose(2);
    pose.set(identity(2));
    assert.throws(() => t.setJoint(pose, 2 ** 32, [7, 7, 7], [0, 0, 0, 1], [1, 1, 1]),
                  tendonError('TENDON_ERR_RANGE', /setJoint: joint is 4294967296; expected a whole number in \[0, 4294967295\]/));
    assert.deepEqual([...pose.translation], [0, 0, 0, 0, 0, 0], 'joint 0 untouched');
    // a clip: track joint 2^32 + 1 would be joint 1, jointCount 2^32 + 2 would be 2
    const track = (joint) => ({ joint, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 1, 1] });
    assert.throws(() => t.createClip({ jointCount: 2, tracks: [track(2 ** 32 + 1)] }),
                  tendonError('TENDON_ERR_RANGE', /clip: tracks\[0\]\.joint is 4294967297/));
    assert.throws(() => t.createClip({ jointCount: 2 ** 32 + 2, tracks: [track(1)] }),
                  tendonError('TENDON_ERR_COUNT', /clip: jointCount is 4294967298/));
    // skinning counts
    const f = t.createFloats(64), u = t.createU16(8);
    assert.throws(() => t.skin({ palette: f, paletteCount: 2 ** 32 + 1, vertexCount: 1, joints: u,
                                 weights: f, positions: f, outPositions: f }),
                  tendonError('TENDON_ERR_COUNT', /skin: paletteCount is 4294967297/));
    assert.throws(() => t.skin({ palette: f, paletteCount: 1, vertexCount: 2 ** 32 + 1, joints: u,
                                 weights: f, positions: f, outPositions: f }),
                  tendonError('TENDON_ERR_COUNT', /skin: vertexCount is 4294967297/));
    // and the wrapped values still work where they are in range
    const c = t.createClip({ jointCount: 2, tracks: [track(1)] });
    c.sample(0.5, pose);
    assert.deepEqual([...pose.translation], [0, 0, 0, 0.5, 0.5, 0.5]);
  });

  test(`${flavour}: caller buffers are checked against the counts the call reads`, async () => {
    const t = await loadTendon({ flavour });
    // clip values: keys × width (× 3 for CUBICSPLINE), exactly
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 1] }] }),
                  tendonError('TENDON_ERR_COUNT', /clip: tracks\[0\]\.values \(2 keys × width 3\) holds 5 elements; expected 6/));
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'rotation', interpolation: 'CUBICSPLINE',
                                                                  times: [0, 1], values: new Array(8).fill(0) }] }),
                  tendonError('TENDON_ERR_COUNT', /tracks\[0\]\.values \(2 keys × width 4 × 3, CUBICSPLINE\) holds 8 elements; expected 24/));
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'scale', times: [0], values: [1, 1, 1, 1] }] }),
                  tendonError('TENDON_ERR_COUNT', /holds 4 elements; expected 3/));
    // masks: one weight per joint
    const a = t.createPose(5), b = t.createPose(5), out = t.createPose(5);
    const short = t.createFloats(3), long = t.createFloats(6), right = t.createFloats(5);
    right.array.fill(1);
    for (const [name, call] of [
      ['blendMasked', (m) => t.blendMasked(a, b, 0.5, m, out)],
      ['addMasked', (m) => t.addMasked(a, b, 0.5, m, out)],
      ['blendMaskedF32', (m) => t.blendMaskedF32(a, b, 0.5, m, out)],
      ['blendNlerpMaskedF32', (m) => t.blendNlerpMaskedF32(a, b, 0.5, m, out)],
      ['addMaskedF32', (m) => t.addMaskedF32(a, b, 0.5, m, out)],
    ]) {
      assert.throws(() => call(short), tendonError('TENDON_ERR_COUNT', /mask \(one weight per joint, 5 joints\) holds 3 elements; expected 5/), name);
      assert.throws(() => call(long), tendonError('TENDON_ERR_COUNT', /holds 6 elements; expected 5/), name);
      call(right);
    }
    // palette and skinning buffers
    const sk = t.createSkeleton({ parents: [-1, 0], rest: identity(2) });
    const bind = t.createSkinBinding(sk, [0, 1]);
    const pose = t.createPose(2);
    sk.restPose(pose);
    const m32 = t.createFloats(32), m16 = t.createFloats(16);
    assert.throws(() => t.palette(sk, bind, pose, m16, m32),
                  tendonError('TENDON_ERR_COUNT', /palette: model \(16 floats × 2 joints\) holds 16 elements; expected at least 32/));
    assert.throws(() => t.palette(sk, bind, pose, m32, m16),
                  tendonError('TENDON_ERR_COUNT', /palette: palette \(16 floats × 2 entries\) holds 16 elements; expected at least 32/));
    const palette = t.createFloats(32);
    t.palette(sk, bind, pose, m32, palette);
    assert.throws(() => t.createSkinBinding(sk, [0, 1], new Array(16).fill(0)),
                  tendonError('TENDON_ERR_COUNT', /inverseBind \(16 floats × 2 entries\) holds 16 elements; expected 32/));
    const job = { palette, paletteCount: 2, vertexCount: 2, influenceCount: 4, joints: t.createU16(8),
                  weights: t.createFloats(8), positions: t.createFloats(6), outPositions: t.createFloats(6) };
    job.weights.array.set([1, 0, 0, 0, 1, 0, 0, 0]);
    job.joints.array.fill(0);
    job.positions.array.set([1, 2, 3, 4, 5, 6]);
    t.skin(job);
    assert.deepEqual([...job.outPositions.array], [1, 2, 3, 4, 5, 6], 'the rest palette is the identity');
    for (const [key, make, pattern] of [
      ['joints', () => t.createU16(7), /skin: joints \(4 influences × 2 vertices\) holds 7 elements; expected at least 8/],
      ['weights', () => t.createFloats(7), /skin: weights \(4 influences × 2 vertices\) holds 7 elements; expected at least 8/],
      ['positions', () => t.createFloats(5), /skin: positions \(3 floats × 2 vertices\) holds 5 elements; expected at least 6/],
      ['outPositions', () => t.createFloats(3), /skin: outPositions \(3 floats × 2 vertices\) holds 3 elements; expected at least 6/],
      ['normals', () => t.createFloats(5), /skin: normals .* holds 5 elements; expected at least 6/],
      ['outNormals', () => t.createFloats(5), /skin: outNormals .* holds 5 elements; expected at least 6/],
      ['palette', () => t.createFloats(31), /skin: palette \(16 floats × 2 entries\) holds 31 elements; expected at least 32/],
    ]) {
      const bad = { ...job, normals: t.createFloats(6), outNormals: t.createFloats(6), [key]: make() };
      assert.throws(() => t.skin(bad), tendonError('TENDON_ERR_COUNT', pattern), key);
    }
    // a spring rig's layer mask: one weight per skeleton joint
    const clip = t.createClip({ jointCount: 2, tracks: [] });
    assert.throws(() => t.createSpringRig({ skeleton: sk, chains: [{ joints: [0, 1], settings: { frequencyHz: 2, damping: 0.5 } }],
                                            layer: { clip, weight: 1, mask: short } }),
                  tendonError('TENDON_ERR_COUNT', /spring rig: layer\.mask \(one weight per joint, 2 joints\) holds 3 elements; expected 2/));
  });
}

for (const flavour of FLAVOURS) {
  test(`${flavour}: wrong types are refused, not coerced`, async () => {
    const t = await loadTendon({ flavour });
    const a = t.createPose(2), b = t.createPose(2), out = t.createPose(2), m = t.createFloats(2);
    const settings = { frequencyHz: 2, damping: 0.5 };
    const anchor = { kind: 'constant', value: [1, 2, 3] };
    for (const bad of [undefined, 'abc', {}, null, '0.5']) {
      const v = tendonError('TENDON_ERR_VALUE', /expected a number/);
      assert.throws(() => t.blend(a, b, bad, out), tendonError('TENDON_ERR_VALUE', /blend: t is/));
      assert.throws(() => t.blendMasked(a, b, bad, m, out), v);
      assert.throws(() => t.add(a, b, bad, out), tendonError('TENDON_ERR_VALUE', /add: weight is/));
      assert.throws(() => t.addMasked(a, b, bad, m, out), v);
      assert.throws(() => t.blendF32(a, b, bad, out), v);
      assert.throws(() => t.blendMaskedF32(a, b, bad, m, out), v);
      assert.throws(() => t.blendNlerpF32(a, b, bad, out), v);
      assert.throws(() => t.blendNlerpMaskedF32(a, b, bad, m, out), v);
      assert.throws(() => t.addF32(a, b, bad, out), v);
      assert.throws(() => t.addMaskedF32(a, b, bad, m, out), v);
      assert.throws(() => t.blendPoses(a, b, bad, out), v);
      assert.throws(() => t.sampleSpring(settings, anchor, bad), tendonError('TENDON_ERR_VALUE', /sampleSpring: timeSec is/));
      assert.throws(() => t.sampleSpringChain([{ ...settings, restOffsetM: [0, -1, 0] }], anchor, bad),
                    tendonError('TENDON_ERR_VALUE', /sampleSpringChain: timeSec is/));
      assert.throws(() => t.springSettleSec({ frequencyHz: bad, damping: 0.5 }),
                    tendonError('TENDON_ERR_VALUE', /settings\.frequencyHz is/));
      assert.throws(() => t.springChainSettleSec([{ frequencyHz: 2, damping: bad, restOffsetM: [0, 0, 0] }]),
                    tendonError('TENDON_ERR_VALUE', /links\[0\]\.damping is/));
    }
    // NaN is a number: it reaches the library, which propagates it (binding.test.mjs)
    a.translation.set([1, 2, 3, 4, 5, 6]);
    t.blend(a, b, NaN, out);
    assert.ok([...out.translation].every(Number.isNaN));
    // clips: a track joint missing or not whole, times not numbers
    const track = { path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 1, 1] };
    assert.throws(() => t.createClip({ jointCount: 2, tracks: [track] }),
                  tendonError('TENDON_ERR_RANGE', /clip: tracks\[0\]\.joint is missing \(undefined\); expected a whole number/));
    assert.throws(() => t.createClip({ jointCount: 2, tracks: [{ ...track, joint: 0.5 }] }),
                  tendonError('TENDON_ERR_RANGE', /clip: tracks\[0\]\.joint is 0\.5/));
    assert.throws(() => t.createClip({ jointCount: 2, tracks: [{ ...track, joint: '1' }] }),
                  tendonError('TENDON_ERR_RANGE', /clip: tracks\[0\]\.joint is string 1/));
    const clip = t.createClip({ jointCount: 2, tracks: [{ ...track, joint: 1 }] });
    assert.throws(() => clip.sample('abc', a), tendonError('TENDON_ERR_VALUE', /clip\.sample: timeSec is string abc/));
    assert.throws(() => clip.sampleF32(undefined, a), tendonError('TENDON_ERR_VALUE', /clip\.sampleF32: timeSec/));
    // skeleton parents: -1 or a whole joint index
    for (const bad of [0.5, '0', null, undefined, -2])
      assert.throws(() => t.createSkeleton({ parents: [-1, bad] }),
                    tendonError('TENDON_ERR_RANGE', /skeleton: parents\[1\] is .*; expected -1 \(a root\) or a joint index/), String(bad));
    // setJoint's vectors: 3, 4, 3 numbers
    assert.throws(() => t.setJoint(a, 0, [0, 0], [0, 0, 0, 1], [1, 1, 1]),
                  tendonError('TENDON_ERR_COUNT', /setJoint: translation has 2 elements; expected 3 numbers/));
    assert.throws(() => t.setJoint(a, 0, [0, 0, 0], [0, 0, 1], [1, 1, 1]),
                  tendonError('TENDON_ERR_COUNT', /setJoint: rotation has 3 elements; expected 4 numbers/));
    assert.throws(() => t.setJoint(a, 0, [0, 0, 0], [0, 0, 0, 1], [1, 1, 1, 1]),
                  tendonError('TENDON_ERR_COUNT', /setJoint: scale has 4 elements; expected 3 numbers/));
    assert.throws(() => t.setJoint(a, 0, [0, 'x', 0], [0, 0, 0, 1], [1, 1, 1]),
                  tendonError('TENDON_ERR_VALUE', /setJoint: translation\[1\] is string x/));
    assert.throws(() => t.setJoint(a, 0, undefined, [0, 0, 0, 1], [1, 1, 1]),
                  tendonError('TENDON_ERR_COUNT', /setJoint: translation has no elements/));
    t.setJoint(a, 1, [7, 8, 9], [0, 0, 0, 1], [2, 2, 2]);
    assert.deepEqual([...a.translation.subarray(3)], [7, 8, 9]);
    // createU16 like createFloats
    for (const bad of [1.5, -1, 'x', undefined])
      assert.throws(() => t.createU16(bad), tendonError('TENDON_ERR_COUNT', /createU16: count is/), String(bad));
    // sampleSpring's out: at least 3, like sampleSpringChain's
    assert.throws(() => t.sampleSpring(settings, anchor, 1, new Float32Array(2)),
                  tendonError('TENDON_ERR_COUNT', /sampleSpring: out holds 2 elements; expected at least 3/));
    assert.deepEqual([...t.sampleSpring(settings, anchor, 1, new Float32Array(4))], [1, 2, 3, 0]);
    // a chain that is not an array
    for (const bad of [{}, { length: 2 }, 'ab', null, 3])
      assert.throws(() => t.sampleSpringChain(bad, anchor, 1),
                    tendonError('TENDON_ERR_VALUE', /sampleSpringChain: links is .*; expected an array of SpringLink/), String(bad));
    assert.throws(() => t.springChainSettleSec({}), tendonError('TENDON_ERR_VALUE', /springChainSettleSec: links is object/));
    assert.throws(() => t.sampleSpringChain([{ ...settings, restOffsetM: [0, -1] }], anchor, 1),
                  tendonError('TENDON_ERR_COUNT', /links\[0\]\.restOffsetM has 2 elements; expected 3 numbers/));
  });

  test(`${flavour}: use after dispose throws instead of reading freed memory`, async () => {
    const t = await loadTendon({ flavour });
    const a = t.createPose(2), b = t.createPose(2), out = t.createPose(2), m = t.createFloats(2);
    m.array.fill(1);
    const rest = identity(4);
    rest.translation.set([0, 0, 0, 0, 1, 0, 0, -0.25, 0, 0, -0.25, 0]);
    const skeleton = t.createSkeleton({ parents: [-1, 0, 1, 2], rest });
    const clip = t.createClip({ jointCount: 4, tracks: [{ joint: 0, path: 'translation', times: [0, 1], values: [0, 0, 0, 1, 0, 0] }] });
    const settings = { frequencyHz: 2, damping: 0.5 };
    const rig = t.createSpringRig({ skeleton, chains: [{ joints: [1, 2, 3], settings }], base: { clip } });
    const pose = t.createPose(4);
    const before = rig.sample(0.5, pose);
    assert.equal(before.length, 6);
    assert.throws(() => rig.sample(0.5, pose, new Float32Array(5)),
                  tendonError('TENDON_ERR_COUNT', /spring rig sample: out \(3 floats × 2 links\) holds 5 elements; expected at least 6/));
    // the rig's clip disposed: sample throws (it read the freed clip before)
    clip.dispose();
    assert.throws(() => rig.sample(0.5, pose), /this spring rig's base\.clip was disposed/);
    assert.throws(() => rig.sample(0.5, null), /base\.clip was disposed/);
    skeleton.dispose();
    assert.throws(() => rig.sample(0.5, pose), /this spring rig's skeleton was disposed/);
    rig.dispose();
    // the instance disposed: every method throws
    t.dispose();
    const dead = /this instance was disposed/;
    for (const [name, call] of Object.entries({
      blend: () => t.blend(a, b, 0.5, out), blendMasked: () => t.blendMasked(a, b, 0.5, m, out),
      add: () => t.add(a, b, 0.5, out), addMasked: () => t.addMasked(a, b, 0.5, m, out),
      blendF32: () => t.blendF32(a, b, 0.5, out), blendMaskedF32: () => t.blendMaskedF32(a, b, 0.5, m, out),
      blendNlerpF32: () => t.blendNlerpF32(a, b, 0.5, out),
      blendNlerpMaskedF32: () => t.blendNlerpMaskedF32(a, b, 0.5, m, out),
      addF32: () => t.addF32(a, b, 0.5, out), addMaskedF32: () => t.addMaskedF32(a, b, 0.5, m, out),
      blendPoses: () => t.blendPoses(a, b, 0.5, out), addPose: () => t.addPose(a, b, 0.5, out),
      setJoint: () => t.setJoint(a, 0, [0, 0, 0], [0, 0, 0, 1], [1, 1, 1]),
      springSettleSec: () => t.springSettleSec(settings),
      springChainSettleSec: () => t.springChainSettleSec([{ ...settings, restOffsetM: [0, -1, 0] }]),
      sampleSpring: () => t.sampleSpring(settings, () => {}, 1),
      sampleSpringChain: () => t.sampleSpringChain([{ ...settings, restOffsetM: [0, -1, 0] }], () => {}, 1),
      createPose: () => t.createPose(1), createFloats: () => t.createFloats(1), createU16: () => t.createU16(1),
      skin: () => t.skin({}),
    })) assert.throws(call, dead, name);
    // the objects themselves can still be freed
    for (const o of [a, b, out, m, pose]) o.dispose();
  });
}

for (const flavour of FLAVOURS) {
  test(`${flavour}: anchors, rest poses and anchor offsets are checked too`, async () => {
    const t = await loadTendon({ flavour });
    assert.throws(() => t.createAnchor({ kind: 'sine', amplitude: [1, 0, 0], frequencyHz: '2', phase: 0 }),
                  tendonError('TENDON_ERR_VALUE', /anchor sine: frequencyHz is string 2; expected a number/));
    assert.throws(() => t.createAnchor({ kind: 'sine', amplitude: [1, 0, 0], frequencyHz: 2 }),
                  tendonError('TENDON_ERR_VALUE', /anchor sine: phase is missing \(undefined\)/));
    assert.throws(() => t.createAnchor({ kind: 'step', from: [0, 0, 0], to: [1, 1, 1] }),
                  tendonError('TENDON_ERR_VALUE', /anchor step: at is missing \(undefined\)/));
    assert.throws(() => t.createAnchor({ kind: 'keys', times: [0, 'x'], values: [[0, 0, 0], [1, 1, 1]] }),
                  tendonError('TENDON_ERR_VALUE', /anchor keys: times\[1\] is string x/));
    assert.throws(() => t.createAnchor({ kind: 'keys', values: [[0, 0, 0]] }),
                  tendonError('TENDON_ERR_VALUE', /anchor keys: "times" must be an array/));
    const step = t.createAnchor({ kind: 'step', at: 0.5, from: [0, 0, 0], to: [1, 2, 3] });
    assert.deepEqual([...t.sampleSpring({ frequencyHz: 2, damping: 1 }, step, 100)], [1, 2, 3]);
    // a rest pose of another joint count, or not whole
    const rest3 = identity(3);
    assert.throws(() => t.createSkeleton({ parents: [-1, 0], rest: rest3 }),
                  tendonError('TENDON_ERR_COUNT', /skeleton: rest has 3 joints; expected 2/));
    assert.throws(() => t.createSkeleton({ parents: [-1, 0], rest: { ...identity(2), rotation: new Float32Array(6) } }),
                  tendonError('TENDON_ERR_COUNT', /skeleton: rest: rotation holds 6 floats/));
    // a rig's anchor offset: 3 numbers
    const sk = t.createSkeleton({ parents: [-1, 0, 1], rest: identity(3) });
    assert.throws(() => t.createSpringRig({ skeleton: sk, chains: [{ joints: [0, 1, 2], settings: { frequencyHz: 2, damping: 0.5 },
                                                                     anchorOffset: [0, 1] }] }),
                  tendonError('TENDON_ERR_COUNT', /spring rig: chains\[0\]\.anchorOffset has 2 elements; expected 3 numbers/));
    assert.throws(() => t.createSpringRig({ skeleton: sk, chains: [{ joints: [0, 1, 2], settings: { frequencyHz: 2, damping: 0.5 } }],
                                            blend: { clip: t.createClip({ jointCount: 3 }), weight: 'half' } }),
                  tendonError('TENDON_ERR_VALUE', /spring rig: blend\.weight is string half/));
  });
}

// The second review of the binding (helper 27): sizes past wasm32's 4 GiB wrapped to a tiny
// malloc and the copy ran over other objects; counts the bounds checks use were writable; a
// getter could dispose the target between the check and the write; a negative `first` skinned
// the whole mesh; a result written into a detached view vanished; a name was cut at a NUL.
// Each case below failed (or corrupted a neighbour) before its fix.
for (const flavour of FLAVOURS) {
  test(`${flavour}: buffers past 4 GiB are refused, never wrapped (a neighbour stays intact)`, async () => {
    const t = await loadTendon({ flavour });
    const hole = t.createFloats(2);
    const victim = t.createFloats(256);
    victim.array.fill(7);
    hole.dispose();
    const links = Array.from({ length: 8 }, () => ({ frequencyHz: 2, damping: 0.5, restOffsetM: [0, -1, 0] }));
    const anchor = { kind: 'constant', value: [1, 2, 3] };
    // an out of 2^30 floats is longer than needed, which is allowed: only 3·count are written
    const big = new Float32Array(2 ** 30);
    const r1 = t.sampleSpringChain(links, anchor, 1, big);
    assert.equal(r1, big);
    const r2 = t.sampleSpringChain(links, anchor, 1);
    assert.deepEqual(bitsOf(big.subarray(0, 24)), bitsOf(r2));
    assert.deepEqual([...victim.array], new Array(256).fill(7));
    // a buffer sized 4·n for n = 2^30 keys: refused before anything is copied
    const keys = { length: 2 ** 30 };
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'weights',
                                                                  width: 1, times: keys, values: keys }] }),
                  tendonError('TENDON_ERR_COUNT', /4294967296 bytes does not fit in wasm32's memory/));
    assert.deepEqual([...victim.array], new Array(256).fill(7));
    victim.dispose();
    t.dispose();
  });

  test(`${flavour}: a skin binding of 2^24 entries overflows wasm32's size_t, refused as that`, async () => {
    const t = await loadTendon({ flavour });
    const sk = t.createSkeleton({ parents: [-1] });
    // its splat table is 256 bytes an entry: 2^24 entries are 4 GiB, which wrapped the size
    // check took for "out of memory"; refused by its count before joint_of is read (one entry here)
    const joints = t._alloc(4), box = t._alloc(4);
    try {
      t._u32()[joints >>> 2] = 0;
      assert.throws(() => t._check(t._x.tendon_skin_binding_create(sk._live(), joints, 0, 2 ** 24, box)),
                    tendonError('TENDON_ERR_OVERFLOW', /palette_count 16777216: its table of 256-byte entries overflows size_t/));
      // and a count the size holds is made (one entry: what joints holds)
      t._check(t._x.tendon_skin_binding_create(sk._live(), joints, 0, 1, box));
      t._x.tendon_skin_binding_destroy(t._u32()[box >>> 2]);
    } finally {
      t._x.free(joints);
      t._x.free(box);
      sk.dispose();
    }
  });

  test(`${flavour}: a clip whose one block passes 4 GiB is refused, never wrapped`, async () => {
    const t = await loadTendon({ flavour });
    // 16382 weights tracks of width 65536 and one key, every one on the same times and values
    // (0.7 MB in all): 2^32 − 524 284 bytes of floats, each track within its own bound, and
    // the clip's track records took the block past 2^32 — it wrapped to 65 KiB, which calloc
    // gave, and the copy of the values ran past the module's memory (a trap)
    const n = 16382, width = 65536, size = t._x.tendon_wasm_track_desc_size();
    const tracks = t._alloc(n * size), times = t._alloc(4), values = t._alloc(4 * width);
    const box = t._alloc(4);
    try {
      t._f32()[times >>> 2] = 0;
      t._f32().fill(0.5, values >>> 2, (values >>> 2) + width);
      for (let i = 0; i < n; ++i)
        t._x.tendon_wasm_track_set(tracks, i, i, 3, 1, width, 1, times, values);
      assert.throws(() => t._check(t._x.tendon_wasm_clip_create(1, n, tracks, box)),
                    tendonError('TENDON_ERR_OVERFLOW', /16382 tracks and 1073610753 floats of times and values: the clip's one block of memory overflows size_t/));
      // a few such tracks are made
      t._check(t._x.tendon_wasm_clip_create(1, 4, tracks, box));
      t._x.tendon_clip_destroy(t._u32()[box >>> 2]);
    } finally {
      t._x.free(tracks);
      t._x.free(times);
      t._x.free(values);
      t._x.free(box);
    }
    t.dispose();
  });

  test(`${flavour}: a spring rig whose workspace passes 4 GiB is refused, never wrapped`, async () => {
    const t = await loadTendon({ flavour });
    // 31 chains of one link, each with its own rest offset (31 marches on one grid), damping
    // 3e-6: 11 726 972 substep times, within the default work budget for each chain, and
    // 8.5 GiB of workspace — the rig's layout wrapped to 510 210 303 bytes, which malloc gave,
    // and the first sample stored its anchors past the module's memory (a trap)
    const n = 31, parents = [-1], rest = identity(1 + 2 * n);
    for (let c = 0; c < n; ++c) {
      parents.push(0, 1 + 2 * c);
      rest.translation[3 * (1 + 2 * c)] = 0.1 * c;
      rest.translation[3 * (2 + 2 * c) + 1] = -0.1 - 0.01 * c;
    }
    const skeleton = t.createSkeleton({ parents, rest });
    const settings = { frequencyHz: 2, damping: 3e-6 };
    const chains = Array.from({ length: n }, (_, c) => ({ joints: [1 + 2 * c, 2 + 2 * c], settings }));
    assert.throws(() => t.createSpringRig({ skeleton, chains }),
                  tendonError('TENDON_ERR_OVERFLOW', /the anchors of the chains on a grid of 11726972 times do not fit/));
    t.dispose();
  });

  test(`${flavour}: counts and lengths are read-only`, async () => {
    const t = await loadTendon({ flavour });
    const sk = t.createSkeleton({ parents: [-1, 0, 0, 0] });
    const bind = t.createSkinBinding(sk, [0]);
    const pose = t.createPose(4);
    const f = t.createFloats(16);
    for (const [o, key] of [[sk, 'jointCount'], [bind, 'paletteCount'], [pose, 'jointCount'],
                            [f, 'length']]) {
      const before = o[key];
      assert.throws(() => { o[key] = 1; }, TypeError, key);
      assert.equal(o[key], before);
    }
    // the palette call still checks `model` against the skeleton's 4 joints
    sk.restPose(pose);
    assert.throws(() => t.palette(sk, bind, pose, t.createFloats(16), t.createFloats(16)),
                  tendonError('TENDON_ERR_COUNT', /./));
    t.dispose();
  });

  test(`${flavour}: setJoint reads its vectors once, before it takes the pose`, async () => {
    const t = await loadTendon({ flavour });
    const pose = t.createPose(4);
    let victim = null, reads = 0;
    const translation = { length: 3, 1: 2, 2: 3,
      get 0() { if (++reads === 2) { pose.dispose(); victim = t.createPose(4); } return 99; } };
    // the getter runs once, in the check: the pose is still alive when it is written
    t.setJoint(pose, 0, translation, [0, 0, 0, 1], [1, 1, 1]);
    assert.equal(reads, 1);
    assert.deepEqual([...pose.translation.slice(0, 3)], [99, 2, 3]);
    // a getter that disposes the pose during the check: refused as a disposed pose, and no other
    // pose is written
    const other = t.createPose(4);
    const killer = { length: 3, 1: 0, 2: 0, get 0() { other.dispose(); victim = t.createPose(4); return 5; } };
    assert.throws(() => t.setJoint(other, 0, killer, [0, 0, 0, 1], [1, 1, 1]), /disposed/);
    assert.deepEqual([...victim.translation.slice(0, 3)], [0, 0, 0]);
    // pose.set: an element's getter that disposes the target is refused as a disposed pose (it
    // wrote into freed memory, then failed on an unrelated TypeError)
    const target = t.createPose(1);
    const rotation = [0, 0, 0];
    Object.defineProperty(rotation, 3, { get() { target.dispose(); victim = t.createPose(1); return 1; } });
    assert.throws(() => target.set({ translation: [4, 5, 6], rotation, scale: [1, 1, 1] }),
                  /this pose was disposed/);
    assert.deepEqual([...victim.translation], [0, 0, 0]);
    t.dispose();
  });

  test(`${flavour}: applyRange refuses a negative first`, async () => {
    const t = await loadTendon({ flavour });
    const mesh = t.createSkinMesh({ paletteCount: 1, influenceCount: 1, joints: new Uint8Array([0, 0]),
                                    weights: [1, 1], positions: [1, 2, 3, 4, 5, 6] });
    const pal = t.createFloats(16);
    pal.array.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const out = t.createFloats(6);
    for (const first of [-1, -(2 ** 31), -Infinity, -0.5]) {
      out.array.fill(NaN);
      assert.throws(() => mesh.applyRange(first, 1, pal, out), tendonError('TENDON_ERR_RANGE', /first/));
      assert.throws(() => mesh.applyDualQuatRange(first, 1, pal, out), tendonError('TENDON_ERR_RANGE', /first/));
      assert.ok(out.array.every((v) => Number.isNaN(v)));
    }
    mesh.applyRange(1, 1, pal, out); // vertex 1 only
    assert.ok(Number.isNaN(out.array[0]));
    assert.deepEqual([...out.array.slice(3)], [4, 5, 6]);
    t.dispose();
  });

  test(`${flavour}: createSkinMesh takes its inputs again after the description's getters ran`, async () => {
    const t = await loadTendon({ flavour });
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const N = 64;
    // a typed array shrunk by a later field's getter (a resizable ArrayBuffer): its old length
    // set the vertex count, and the library read 3·N floats from a copy of 1
    const buf = new ArrayBuffer(12 * N, { maxByteLength: 12 * N });
    const positions = new Float32Array(buf).fill(7);
    assert.throws(() => t.createSkinMesh({
      paletteCount: 1, influenceCount: 1, positions, weights: new Float32Array(N).fill(1),
      get joints() { buf.resize(4); return new Uint16Array(N); },
    }), tendonError('TENDON_ERR_COUNT', /positions held 192 elements when it was read and 1/));
    // a ModuleFloats disposed by a later field's getter: the library copied freed memory (the
    // weights' copy, made in it) and returned TENDON_OK
    const pos = t.createFloats(3 * N);
    pos.array.fill(7);
    assert.throws(() => t.createSkinMesh({
      paletteCount: 1, influenceCount: 1, positions: pos,
      get joints() { pos.dispose(); return new Uint16Array(N); },
      weights: Array.from({ length: N }, () => 0.5),
    }), /these floats were disposed/);
    // the palette count checked is the one passed (a getter's second answer wrapped to 1)
    let reads = 0;
    const mesh = t.createSkinMesh({
      get paletteCount() { return reads++ === 0 ? 3 : 2 ** 32 + 1; },
      influenceCount: 1, joints: new Uint8Array([2]), weights: [1], positions: [1, 2, 3],
    });
    assert.equal(mesh.paletteCount, 3);
    // and the usual case is unchanged
    const p3 = t.createFloats(3);
    p3.array.set([7, 8, 9]);
    const ok = t.createSkinMesh({ paletteCount: 1, influenceCount: 1, positions: p3,
                                  joints: new Uint16Array(1), weights: new Float32Array([1]) });
    const pal = t.createFloats(16), out = t.createFloats(3);
    pal.array.set(identity);
    ok.apply(pal, out);
    assert.deepEqual([...out.array], [7, 8, 9]);
    t.dispose();
  });

  test(`${flavour}: createClip reads a track's times and values once`, async () => {
    const t = await loadTendon({ flavour });
    // times read for the checks gave 2 keys, and read again for the copy and the key count 4096:
    // the library read 4096 keys of values from a copy of 2 (past it, into the heap) — TENDON_OK
    let reads = 0;
    const long = Array.from({ length: 4096 }, (_, i) => i / 30);
    const track = { joint: 0, path: 'translation', interpolation: 'LINEAR', values: [0, 0, 0, 1, 1, 1],
                    get times() { return reads++ < 4 ? [0, 1] : long; } };
    const clip = t.createClip({ jointCount: 1, tracks: [track] });
    assert.equal(reads, 1);
    assert.equal(clip.duration, 1);
    const pose = t.createPose(1);
    clip.sample(100, pose);
    assert.deepEqual([...pose.translation], [1, 1, 1]);
    // a values array that shrinks while it is copied: refused, not read past
    const shrinking = [0, 0, 0];
    Object.defineProperty(shrinking, 3, { get() { shrinking.length = 4; return 1; }, configurable: true });
    shrinking[4] = 1; shrinking[5] = 1;
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'translation',
                                                                  times: [0, 1], values: shrinking }] }),
                  tendonError('TENDON_ERR_VALUE', /values\[4\] is undefined/));
    // jointCount: the value checked is the one passed (a getter's 2^32 + 2 arrived as 2)
    let jreads = 0;
    const clip2 = t.createClip({ get jointCount() { return jreads++ === 0 ? 1 : 2 ** 32 + 2; }, tracks: [] });
    assert.equal(jreads, 1);
    assert.equal(clip2.jointCount, 1);
    assert.throws(() => clip2.sample(0, t.createPose(2)), tendonError('TENDON_ERR_COUNT', /./));
    t.dispose();
  });

  test(`${flavour}: createSkeleton and createSkinBinding read their arrays once`, async () => {
    const t = await loadTendon({ flavour });
    // names checked as 3 and written from an empty array: the name table was left as malloc
    // left it (here two freed blocks of 0xfffffff0), and the library read names there (a trap)
    const junk = [t.createFloats(3), t.createFloats(3)];
    for (const j of junk) new Uint32Array(t.memory.buffer, j._ptr, 3).fill(0xfffffff0);
    for (const j of junk) j.dispose();
    let reads = 0;
    const sk = t.createSkeleton({ parents: [-1, 0, 1],
                                  get names() { return reads++ < 2 ? ['a', 'b', 'c'] : []; } });
    assert.equal(reads, 1);
    assert.deepEqual([0, 1, 2].map((j) => t._string(t._x.tendon_skeleton_joint_name(sk._live(), j))),
                     ['a', 'b', 'c']);
    // a sparse names array: a hole is refused (forEach skipped it, leaving its pointer unset)
    assert.throws(() => t.createSkeleton({ parents: [-1, 0], names: ['a', , ] }), TypeError); // eslint-disable-line no-sparse-arrays
    // parents: an element read once (checked as -1, then written as 2^32 - 1 would wrap)
    let preads = 0;
    const parents = [-1, 0];
    Object.defineProperty(parents, 1, { get() { return preads++ === 0 ? 0 : 2 ** 32; } });
    const sk2 = t.createSkeleton({ parents });
    assert.equal(preads, 1);
    assert.equal(sk2.jointCount, 2);
    // inverseBind's length checked as 16·n, then read as 0 for the copy: the library read 16·n
    // floats from a 4-byte block (TENDON_OK); now the checked count is what is copied
    let lreads = 0;
    const inverseBind = { get length() { return lreads++ === 0 ? 16 : 0; } };
    assert.throws(() => t.createSkinBinding(sk, [0], inverseBind),
                  tendonError('TENDON_ERR_VALUE', /inverseBind\[0\] is undefined/));
    // jointOf: an element read once (checked as 0, written as 2^32 + 1 would wrap to 1)
    let jreads = 0;
    const jointOf = [];
    Object.defineProperty(jointOf, 0, { get() { return jreads++ === 0 ? 0 : 2 ** 32 + 1; }, enumerable: true });
    jointOf.length = 1;
    const b = t.createSkinBinding(sk, jointOf);
    assert.equal(jreads, 1);
    const model = t.createFloats(48), palette = t.createFloats(16), pose = t.createPose(3);
    sk.restPose(pose);
    t.palette(sk, b, pose, model, palette);
    t.dispose();
  });

  test(`${flavour}: createSpringRig reads each chain's joints once`, async () => {
    const t = await loadTendon({ flavour });
    const sk = t.createSkeleton({ parents: [-1, 0] });
    const jointCount = () => t._x.tendon_skeleton_joint_count(sk._live());
    // the joints block was sized from one read (1 joint) and filled from another (2000): the
    // binding wrote 8000 bytes into an 8-byte block, over the heap (the skeleton's joint count
    // went from 2 to 1)
    let reads = 0;
    const long = new Array(2000).fill(1);
    const chain = { settings: { frequencyHz: 2, damping: 0.5 },
                    get joints() { return reads++ < 2 ? [1] : long; } };
    assert.throws(() => t.createSpringRig({ skeleton: sk, chains: [chain] }),
                  tendonError('TENDON_ERR_VALUE', /chain 0 has 1 joints/));
    assert.equal(reads, 1);
    assert.equal(jointCount(), 2);
    // a hole in a chain's joints is refused (it was written as joint 0)
    assert.throws(() => t.createSpringRig({ skeleton: sk, chains: [{ joints: [, 1], // eslint-disable-line no-sparse-arrays
                                                                     settings: { frequencyHz: 2, damping: 0.5 } }] }),
                  tendonError('TENDON_ERR_RANGE', /chains\[0\]\.joints\[0\]/));
    // and a good rig still works
    const rig = t.createSpringRig({ skeleton: sk, chains: [{ joints: [0, 1], settings: { frequencyHz: 2, damping: 0.5 } }] });
    assert.equal(rig.linkCount, 1);
    t.dispose();
  });

  test(`${flavour}: createSpringRig reads its skeleton, clips and mask once`, async () => {
    const t = await loadTendon({ flavour });
    // the layer mask was checked against the skeleton of one read (2 joints) and the rig built
    // on the skeleton of another (600): every sample read 598 floats past the 2-float mask
    const small = t.createSkeleton({ parents: [-1, 0] });
    const big = t.createSkeleton({ parents: Array.from({ length: 600 }, (_, j) => j - 1) });
    const clip = t.createClip({ jointCount: 600, tracks: [] });
    const mask = t.createFloats(2);
    mask.array.set([1, 1]);
    let reads = 0;
    const d = {
      get skeleton() { return reads++ < 4 ? small : big; },
      chains: [{ joints: [0, 1], settings: { frequencyHz: 2, damping: 0.5 } }],
      base: { clip }, layer: { clip, weight: 1, mode: 'override', mask },
    };
    assert.throws(() => t.createSpringRig(d),
                  tendonError('TENDON_ERR_COUNT', /base\.clip has 600 joints, the skeleton 2/));
    assert.equal(reads, 1);
    // the clip the rig keeps live is the clip it was made with (a getter's second answer was
    // kept, so disposing the first went unseen by sample)
    const clipA = t.createClip({ jointCount: 2, tracks: [] }), clipB = t.createClip({ jointCount: 2, tracks: [] });
    let creads = 0;
    const rig = t.createSpringRig({ skeleton: small,
                                    chains: [{ joints: [0, 1], settings: { frequencyHz: 2, damping: 0.5 } }],
                                    base: { get clip() { return creads++ === 0 ? clipA : clipB; } } });
    assert.equal(creads, 1);
    clipA.dispose();
    assert.throws(() => rig.sample(0.5, null), /base\.clip was disposed/);
    t.dispose();
  });

  test(`${flavour}: a result for a view the anchor detached throws instead of vanishing`, async () => {
    const t = await loadTendon({ flavour });
    const dst = t.createFloats(3);
    let grown = false;
    let grow = 1 << 24; // floats; each growth twice the last, so the freed one cannot hold it
    const anchor = (s, o) => {
      if (!grown) { grown = true; t.createFloats(grow).dispose(); grow *= 2; }
      o[0] = 1; o[1] = 2; o[2] = 3;
    };
    assert.throws(() => t.sampleSpring({ frequencyHz: 2, damping: 0.35 }, anchor, 1.25, dst.array),
                  tendonError('TENDON_ERR_VALUE', /sampleSpring: out was a view of module memory/));
    // a plain array gets the result
    const r = t.sampleSpring({ frequencyHz: 2, damping: 0.35 }, anchor, 1.25, new Float32Array(3));
    assert.deepEqual([...r], [1, 2, 3]);
    grown = false;
    const chainOut = t.createFloats(6);
    assert.throws(() => t.sampleSpringChain([{ frequencyHz: 2, damping: 0.5, restOffsetM: [0, -1, 0] },
                                             { frequencyHz: 2, damping: 0.5, restOffsetM: [0, -1, 0] }],
                                            anchor, 1.25, chainOut.array),
                  tendonError('TENDON_ERR_VALUE', /sampleSpringChain: out was a view of module memory/));
    t.dispose();
  });

  test(`${flavour}: names with a NUL, or not strings, are refused`, async () => {
    const t = await loadTendon({ flavour });
    assert.throws(() => t.createSkeleton({ parents: [-1, 0], names: ['hips', 'spine\0x'] }),
                  tendonError('TENDON_ERR_VALUE', /names\[1\] holds a NUL character at index 5/));
    for (const bad of [7, undefined, {}, null])
      assert.throws(() => t.createSkeleton({ parents: [-1, 0], names: ['hips', bad] }), TypeError);
    const sk = t.createSkeleton({ parents: [-1, 0], names: ['hips', 'spine'] });
    assert.equal(sk.jointCount, 2);
    t.dispose();
  });
}
