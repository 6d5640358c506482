// Clips, skeletons, the palette and skinning through the binding, on both modules: values worked
// out by hand, times at ±0, NaN and far out of range (the key search turns a time into an index:
// WebAssembly's float → int conversions saturate or trap where x86's give 0x80000000, so every
// out-of-range time must still clamp to the end keys), and the errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTendon, TendonError } from '../tendon.mjs';

for (const flavour of ['simd128', 'scalar']) {
  test(`${flavour}: clip sampling, both tiers, at ±0, NaN and out-of-range times`, async () => {
    const t = await loadTendon({ flavour });
    // 9 joints (a SIMD block and a tail); joint j's translation goes 0 → (j, 2j, 4j) over
    // uniform keys 0, 0.25, 0.5, 0.75, 1 (x = j·4·time at the keys: exact); joint 0 steps its
    // rotation at 0.5; joint 8's scale is a single key.
    const n = 9, times = [0, 0.25, 0.5, 0.75, 1];
    const tracks = [];
    for (let j = 0; j < n; j++) {
      const values = [];
      for (const k of times) values.push(j * k, 2 * j * k, 4 * j * k);
      tracks.push({ joint: j, path: 'translation', interpolation: 'LINEAR', times, values });
    }
    tracks.push({ joint: 0, path: 'rotation', interpolation: 'STEP', times: [0, 0.5],
                  values: [0, 0, 0, 1, 0, 1, 0, 0] });
    tracks.push({ joint: 8, path: 'scale', interpolation: 'LINEAR', times: [0.3], values: [2, 3, 4] });
    const clip = t.createClip({ jointCount: n, tracks });
    assert.equal(clip.duration, 1);
    const pose = t.createPose(n);
    for (const sample of ['sample', 'sampleF32']) {
      const at = (time, j) => { clip[sample](time, pose); return [...pose.translation.slice(3 * j, 3 * j + 3)]; };
      assert.deepEqual(at(0.625, 4), [2.5, 5, 10], `${sample}: between keys (exact)`);
      assert.deepEqual(at(0.75, 8), [6, 12, 24], `${sample}: on a key`);
      for (const [time, end] of [[-0, 0], [-1e30, 0], [-Infinity, 0], [-(2 ** 40), 0],
                                 [1e30, 1], [Infinity, 1], [2 ** 31 + 0.5, 1], [2 ** 63, 1],
                                 [3.4e38, 1], [1.0000001, 1]]) {
        for (let j = 0; j < n; j++)
          assert.deepEqual(at(time, j), [j * end, 2 * j * end, 4 * j * end], `${sample}(${time}) joint ${j}`);
      }
      clip[sample](0.4999, pose);
      assert.deepEqual([...pose.rotation.slice(0, 4)], [0, 0, 0, 1], `${sample}: STEP before its key`);
      clip[sample](0.5, pose);
      assert.deepEqual([...pose.rotation.slice(0, 4)], [0, 1, 0, 0], `${sample}: STEP at its key`);
      assert.deepEqual([...pose.scale.slice(24, 27)], [2, 3, 4], `${sample}: one key holds everywhere`);
      assert.throws(() => clip[sample](NaN, pose),
                    (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE' && /NaN/.test(e.message));
    }
    clip.dispose();
    assert.throws(() => clip.sample(0, pose), /disposed/);
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'translation', times: [1, 0],
                                                                  values: [0, 0, 0, 1, 1, 1] }] }),
                  (e) => e.statusName === 'TENDON_ERR_VALUE' && /increasing/.test(e.message));
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 3, path: 'scale', times: [0],
                                                                  values: [1, 1, 1] }] }),
                  (e) => e.statusName === 'TENDON_ERR_RANGE');
    assert.throws(() => t.createClip({ jointCount: 1, tracks: [{ joint: 0, path: 'colour', times: [0], values: [1] }] }),
                  /path "colour" is not translation, rotation, scale or weights/);
  });

  test(`${flavour}: skeleton → palette → skinning (hand-computed)`, async () => {
    const t = await loadTendon({ flavour });
    // root at the origin, child 1 m up the y axis at rest; inverse binds derived from that rest
    // pose, so the palette is the identity at rest and the child's entry is a pure translation
    // by (pose − rest) when the child moves.
    const rest = { translation: new Float32Array([0, 0, 0, 0, 1, 0]),
                   rotation: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1]),
                   scale: new Float32Array([1, 1, 1, 1, 1, 1]) };
    const sk = t.createSkeleton({ parents: [-1, 0], names: ['root', 'arm'], rest });
    assert.equal(sk.jointCount, 2);
    const bind = t.createSkinBinding(sk, [0, 1]); // inverse binds from the rest pose
    const pose = t.createPose(2), model = t.createFloats(32), palette = t.createFloats(32);
    sk.restPose(pose);
    assert.deepEqual([...pose.translation], [0, 0, 0, 0, 1, 0]);
    t.palette(sk, bind, pose, model, palette);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    assert.deepEqual([...palette.array], [...identity, ...identity], 'at rest the palette is the identity');
    // skinning at rest: a vertex on the child stays where it is, bit for bit
    const joints = t.createU16(8), weights = t.createFloats(8);
    joints.array.set([1, 0, 0, 0, 0, 1, 0, 0]);
    weights.array.set([1, 0, 0, 0, 0.5, 0.5, 0, 0]);
    const positions = t.createFloats(6), out = t.createFloats(6);
    positions.array.set([0.25, 1.5, -0.125, 0, 1, 0]);
    const job = { palette, paletteCount: 2, vertexCount: 2, influenceCount: 4, joints, weights,
                  positions, outPositions: out };
    t.skin(job);
    assert.deepEqual([...out.array], [0.25, 1.5, -0.125, 0, 1, 0]);
    // the child moved up by 1 m (translation (0, 2, 0)): a vertex fully on it moves by 1 m,
    // one half on it by 0.5 m
    pose.translation[4] = 2;
    t.palette(sk, bind, pose, model, palette);
    assert.deepEqual([...palette.array.slice(28, 31)], [0, 1, 0], 'palette[1] translation');
    t.skin(job);
    assert.deepEqual([...out.array], [0.25, 2.5, -0.125, 0, 1.5, 0]);
    // errors: a palette index out of range is named; a bad skeleton order is refused
    joints.array[0] = 7;
    assert.throws(() => t.skin(job), (e) => e.statusName === 'TENDON_ERR_RANGE' && /7/.test(e.message));
    assert.throws(() => t.createSkeleton({ parents: [-1, 0, 0, 1] }),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_RANGE');
    assert.throws(() => t.createSkinBinding(sk, [0, 2]), (e) => e.statusName === 'TENDON_ERR_RANGE');
    for (const x of [bind, sk, model, palette, joints, weights, positions, out, pose]) x.dispose();
  });
}
