// The spring rig through the binding, on both modules: at rest the chain hangs exactly on its
// joints; with a moving clip its link positions equal, bit for bit, sampleSpringChain over the
// rig's own links with a JavaScript anchor that samples the same clip through the binding and
// places the anchor as the rig defines it (M(parent of J0) · L(J0) · (offset, 1), float32, in the
// written order) — the rig's batched evaluation against the one-time-at-a-time path. The blend
// and layer weights as JavaScript functions of time: a constant function gives the constant's
// bits; time-varying ones equal sampleSpringChain with an anchor built from the binding's own
// clip sampling, blend and add at each anchor time (src/spring_rig.c's definition of the clips
// source), on both tiers, and the functions see exactly the times the anchor is asked about.
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
  test(`${flavour}: spring rig weights as functions of time (blend and additive layer), both tiers`, async () => {
    const t = await loadTendon({ flavour });
    const rest = {
      translation: new Float32Array([0, 0, 0, 0, 1, 0, 0, -0.25, 0, 0, -0.25, 0]),
      rotation: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      scale: new Float32Array(12).fill(1),
    };
    const skeleton = t.createSkeleton({ parents: [-1, 0, 1, 2], rest });
    const settings = { frequencyHz: 2, damping: 0.35 };
    const track = (times, values) => ({ jointCount: 4, tracks: [
      { joint: 0, path: 'translation', interpolation: 'LINEAR', times, values }] });
    // the root: the base moves it along x, the blend clip along z, the additive layer along y
    const base = t.createClip(track([0, 1, 2], [0, 0, 0, 1, 0, 0, 0, 0, 0]));
    const toward = t.createClip(track([0, 2], [0, 0, 0, 0, 0, 1.5]));
    const layer = t.createClip(track([0, 2], [0, 0.3, 0, 0, -0.2, 0]));
    const blendW = (s) => 0.5 + 0.5 * Math.sin(3 * s);  // clamped by the blend to [0, 1]: never outside here
    const layerW = (s) => s - 0.5;                       // below 0 early (the add clamps it), above 1 late
    const chains = [{ joints: [1, 2, 3], settings }];
    const weightsBefore = t._rigWeights.size;
    for (const tier of ['exact', 'f32']) {
      // a constant function: the constant's bits, positions and rotations
      const rc = t.createSpringRig({ skeleton, chains, tier, base: { clip: base }, blend: { clip: toward, weight: 0.3 },
                                     layer: { clip: layer, weight: 0.6, mode: 'additive' } });
      const rf = t.createSpringRig({ skeleton, chains, tier, base: { clip: base }, blend: { clip: toward, weight: () => 0.3 },
                                     layer: { clip: layer, weight: () => 0.6, mode: 'additive' } });
      const pc = t.createPose(4), pf = t.createPose(4);
      for (const time of [0.3, 1.0, 1.37, 2.5]) {
        skeleton.restPose(pc); skeleton.restPose(pf);
        const a = rc.sample(time, pc), b = rf.sample(time, pf);
        assert.deepEqual([...new Uint32Array(b.buffer)], [...new Uint32Array(a.buffer)], `${tier} at ${time}: positions`);
        assert.deepEqual([...pf.rotation], [...pc.rotation], `${tier} at ${time}: rotations`);
      }
      rc.dispose(); rf.dispose();

      // time-varying: the rig against sampleSpringChain with the source evaluated here, time by
      // time, through the binding (P ← base; P ← blend(P, Q, w_b(t)); P ← add(P, D, w_l(t)))
      const seen = { blend: [], layer: [] };
      const rig = t.createSpringRig({
        skeleton, chains, tier, base: { clip: base },
        blend: { clip: toward, weight: (s) => { seen.blend.push(s); return blendW(s); } },
        layer: { clip: layer, mode: 'additive', weight: (s) => { seen.layer.push(s); return layerW(s); } },
      });
      const links = rig.chainLinks(0);
      const P = t.createPose(4), Q = t.createPose(4), D = t.createPose(4);
      const f32 = tier === 'f32';
      const asked = [];
      const anchor = (time, out) => {
        asked.push(time);
        skeleton.restPose(P); skeleton.restPose(Q); // D: the identity pose (createPose)
        D.translation.fill(0); D.scale.fill(1); D.rotation.set([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
        base[f32 ? 'sampleF32' : 'sample'](time, P);
        toward[f32 ? 'sampleF32' : 'sample'](time, Q);
        t[f32 ? 'blendF32' : 'blend'](P, Q, blendW(time), P);
        layer[f32 ? 'sampleF32' : 'sample'](time, D);
        t[f32 ? 'addF32' : 'add'](P, D, layerW(time), P);
        // the root is a pure translation (its rotation and scale blended and added from the
        // identity stay exact), so its model matrix is the translation; J0 keeps its rest
        // transform (no track drives it): the anchor is as in the test above
        assert.deepEqual([...P.rotation.slice(0, 4), ...P.scale.slice(0, 3)], [0, 0, 0, 1, 1, 1, 1]);
        const p = P.translation, j0 = [0, 1, 0];
        out[0] = f(f(f(f(1 * j0[0]) + f(0 * j0[1])) + f(0 * j0[2])) + p[0]);
        out[1] = f(f(f(f(0 * j0[0]) + f(1 * j0[1])) + f(0 * j0[2])) + p[1]);
        out[2] = f(f(f(f(0 * j0[0]) + f(0 * j0[1])) + f(1 * j0[2])) + p[2]);
      };
      const pose = t.createPose(4);
      for (const time of [0.3, 1.0, 1.37, 2.5]) {
        seen.blend.length = seen.layer.length = asked.length = 0;
        skeleton.restPose(pose);
        const got = rig.sample(time, pose);
        const want = t.sampleSpringChain(links, anchor, time);
        assert.deepEqual([...new Uint32Array(got.buffer)], [...new Uint32Array(want.buffer)],
                         `${tier}: link positions at ${time} s (${[...got]} against ${[...want]})`);
        // the functions were asked exactly the times the march anchors at, once each, in order
        assert.ok(asked.length > 10, `${asked.length} anchor times`);
        assert.deepEqual(seen.blend, asked, `${tier} at ${time}: the blend weight's times`);
        assert.deepEqual(seen.layer, asked, `${tier} at ${time}: the layer weight's times`);
        assert.equal(asked[asked.length - 1], time);
      }
      // the weights matter: the constant-weight rig gives other positions at 1.37 s
      const other = t.createSpringRig({ skeleton, chains, tier, base: { clip: base }, blend: { clip: toward, weight: 0.3 },
                                        layer: { clip: layer, weight: 0.6, mode: 'additive' } });
      assert.notDeepEqual([...other.sample(1.37, null)], [...rig.sample(1.37, null)]);
      other.dispose();
      // a function's failures: a non-number is refused naming the weight and the time; an
      // exception propagates out of the sample; the rig samples again afterwards
      let bad = 'x';
      const rb = t.createSpringRig({ skeleton, chains, tier, base: { clip: base },
                                     blend: { clip: toward, weight: () => bad } });
      assert.throws(() => rb.sample(1, null), (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE' &&
                    /spring rig: blend\.weight\(.*\) returned string x; expected a number/.test(e.message));
      bad = undefined;
      assert.throws(() => rb.sample(1, null), /returned undefined/);
      const rt = t.createSpringRig({ skeleton, chains, tier, base: { clip: base },
                                     layer: { clip: layer, weight: () => { throw new RangeError('weight out of tune'); } } });
      assert.throws(() => rt.sample(1, null), /weight out of tune/);
      bad = 0.25;
      assert.equal(rb.sample(1, null).length, 6);
      for (const x of [rig, rb, rt, P, Q, D, pose, pc, pf]) x.dispose();
    }
    assert.throws(() => t.createSpringRig({ skeleton, chains, blend: { clip: toward, weight: '0.5' } }),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_VALUE' &&
                         /blend\.weight is string 0\.5; expected a number or a function/.test(e.message));
    assert.equal(t._rigWeights.size, weightsBefore, 'disposed rigs forget their weight functions');
    for (const x of [base, toward, layer, skeleton]) x.dispose();
  });
}
