// The spring rig through the binding, on both modules: at rest the chain hangs exactly on its
// joints; with a moving clip its link positions equal, bit for bit, sampleSpringChain over the
// rig's own links with a JavaScript anchor that samples the same clip through the binding and
// places the anchor as the rig defines it (M(parent of J0) · L(J0) · (offset, 1), float32, in the
// written order) — the rig's batched evaluation against the one-time-at-a-time path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTendon, TendonError } from '../tendon.mjs';

const f = Math.fround;

for (const flavour of ['simd128', 'scalar']) {
  test(`${flavour}: spring rig at rest, and against sampleSpringChain with a moving clip`, async () => {
    const t = await loadTendon({ flavour });
    // joint 0: the root (a clip moves it along x); joint 1: the chain's anchor joint J0, 1 m up;
    // joints 2, 3: links J1, J2 hanging 0.25 m below each other
    const rest = {
      translation: new Float32Array([0, 0, 0, 0, 1, 0, 0, -0.25, 0, 0, -0.25, 0]),
      rotation: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      scale: new Float32Array(12).fill(1),
    };
    const skeleton = t.createSkeleton({ parents: [-1, 0, 1, 2], names: ['root', 'hair', 'h1', 'h2'], rest });
    const settings = { frequencyHz: 2, damping: 0.35 };
    const still = t.createSpringRig({ skeleton, chains: [{ joints: [1, 2, 3], settings }] });
    assert.equal(still.chainCount, 1);
    assert.equal(still.linkCount, 2);
    const pose = t.createPose(4);
    skeleton.restPose(pose);
    const restRotations = [...pose.rotation];
    const atRest = still.sample(1.5, pose);
    assert.deepEqual([...atRest], [0, f(0.75), 0, 0, f(0.5), 0], 'the chain hangs on its rest joints');
    assert.deepEqual([...pose.rotation], restRotations, 'at rest no joint turns');
    still.dispose();

    // the root moves along x: 0 → 1 m over a second, and back over the next
    const clip = t.createClip({ jointCount: 4, tracks: [
      { joint: 0, path: 'translation', interpolation: 'LINEAR', times: [0, 1, 2],
        values: [0, 0, 0, 1, 0, 0, 0, 0, 0] }] });
    const rig = t.createSpringRig({ skeleton, chains: [{ joints: [1, 2, 3], settings }],
                                    base: { clip } });
    const links = rig.chainLinks(0);
    assert.equal(links.length, 2);
    assert.deepEqual(links.map((l) => l.restOffsetM), [[0, -0.25, 0], [0, -0.25, 0]]);
    // the anchor the rig defines, from the clip sampled through the binding: the root's model
    // matrix is a pure translation p, J0's local matrix the translation (0, 1, 0) and the offset
    // 0, so the anchor is (((1·0 + 0·1) + 0·0) + p.x, ((0·0 + 1·1) + 0·0) + p.y, …) in float32
    const scratch = t.createPose(4);
    skeleton.restPose(scratch);
    const anchor = (time, out) => {
      clip.sample(time, scratch);
      const p = scratch.translation, j0 = [scratch.translation[3], scratch.translation[4], scratch.translation[5]];
      out[0] = f(f(f(f(1 * j0[0]) + f(0 * j0[1])) + f(0 * j0[2])) + p[0]);
      out[1] = f(f(f(f(0 * j0[0]) + f(1 * j0[1])) + f(0 * j0[2])) + p[1]);
      out[2] = f(f(f(f(0 * j0[0]) + f(0 * j0[1])) + f(1 * j0[2])) + p[2]);
    };
    for (const time of [0.3, 1.0, 1.37, 2.5]) {
      skeleton.restPose(pose);
      clip.sample(time, pose);
      const got = rig.sample(time, pose);
      const want = t.sampleSpringChain(links, anchor, time);
      assert.deepEqual([...got], [...want], `link positions at ${time} s`);
      assert.ok(got[0] !== 0 || time > 2, 'the chain trails the moving root');
      // the anchor joint J0 turned toward its sprung link (unless it hangs straight)
      const q = [...pose.rotation.slice(4, 8)];
      assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-6, 'a unit rotation');
    }
    assert.throws(() => rig.sample(NaN, pose), (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE');
    assert.throws(() => t.createSpringRig({ skeleton, chains: [{ joints: [1, 3], settings }] }),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE' && /parent/.test(e.message));
    assert.throws(() => t.createSpringRig({ skeleton, chains: [{ joints: [1, 2], settings: { frequencyHz: 2, damping: 0 } }] }),
                  (e) => e.statusName === 'TENDON_ERR_VALUE');
    rig.dispose();
    assert.throws(() => rig.sample(1, pose), /disposed/);
    for (const x of [clip, skeleton, pose, scratch]) x.dispose();
  });
}
