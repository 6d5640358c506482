// Copies between plain JavaScript Poses and module poses (ModulePose.set / copyTo, the scratch
// poses of blendPoses / addPose, a skeleton's rest): a plain pose whose arrays do not hold exactly
// 3n, 4n and 3n floats for the module pose's n joints is refused with a TendonError naming the
// array, its length and the expected length — never a prefix copied (too short, or a longer typed
// array cut by subarray), never a RangeError from TypedArray.set (too long). On both modules; what
// each module pose holds afterwards is checked to be untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTendon, TendonError } from '../tendon.mjs';

const FLAVOURS = ['simd128', 'scalar'];

const countError = (pattern) => (e) => {
  assert.ok(e instanceof TendonError, `a TendonError, not ${e}`);
  assert.ok(e instanceof Error);
  assert.equal(e.statusName, 'TENDON_ERR_COUNT', e.message);
  assert.match(e.message, pattern);
  return true;
};

/** A plain pose of n joints whose every float is `v` (distinct from the rest pose). */
const filled = (n, v) => ({ translation: new Float32Array(3 * n).fill(v),
                            rotation: new Float32Array(4 * n).fill(v),
                            scale: new Float32Array(3 * n).fill(v) });
/** The same pose with one array `delta` floats longer or shorter (typed or plain array). */
function resized(pose, key, delta, plain = false) {
  const a = pose[key], b = new Float32Array(a.length + delta).fill(a[0] ?? 7);
  b.set(a.subarray(0, Math.min(a.length, b.length)));
  return { ...pose, [key]: plain ? [...b] : b };
}
const REST = { translation: [0, 0, 0, 0, 0, 0, 0, 0, 0], rotation: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
               scale: [1, 1, 1, 1, 1, 1, 1, 1, 1] };
const contents = (p) => ({ translation: [...p.translation], rotation: [...p.rotation], scale: [...p.scale] });
const WIDTH = { translation: 3, rotation: 4, scale: 3 };

for (const flavour of FLAVOURS) {
  test(`${flavour}: ModulePose.set refuses arrays of the wrong length and copies nothing`, async () => {
    const t = await loadTendon({ flavour });
    const m = t.createPose(3);
    for (const key of ['translation', 'rotation', 'scale']) {
      for (const delta of [-1, 1, -WIDTH[key], WIDTH[key], -3 * WIDTH[key]]) {
        for (const plain of [false, true]) {
          const bad = resized(filled(3, 5), key, delta, plain);
          const len = 3 * WIDTH[key] + delta;
          assert.throws(() => m.set(bad),
                        countError(new RegExp(`pose\\.set: ${key} \\(${WIDTH[key]} floats × 3 joints\\) ` +
                                              `holds ${len} elements; expected ${3 * WIDTH[key]}$`)),
                        `${key} ${delta > 0 ? '+' : ''}${delta}${plain ? ' (plain array)' : ''}`);
          assert.deepEqual(contents(m), REST, `${key} ${delta}: the module pose is untouched`);
        }
      }
    }
    // not arrays at all
    assert.throws(() => m.set({ translation: new Float32Array(9), rotation: new Float32Array(12) }),
                  (e) => e instanceof TypeError && /pose\.set: scale is not an array/.test(e.message));
    assert.throws(() => m.set(null), TypeError);
    // the right lengths still copy, typed or plain, and another module pose too
    m.set(filled(3, 0.25));
    assert.deepEqual(contents(m), contents(filled(3, 0.25)));
    m.set({ translation: [1, 2, 3, 4, 5, 6, 7, 8, 9], rotation: REST.rotation, scale: REST.scale });
    assert.deepEqual([...m.translation], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const other = t.createPose(3);
    other.set(m);
    assert.deepEqual(contents(other), contents(m));
    // a module pose of another joint count is refused the same way
    const two = t.createPose(2);
    assert.throws(() => two.set(m), countError(/pose\.set: translation \(3 floats × 2 joints\) holds 9 elements; expected 6/));
    assert.throws(() => m.set(two), countError(/pose\.set: translation \(3 floats × 3 joints\) holds 6 elements; expected 9/));
    // a zero-joint pose takes only empty arrays
    const none = t.createPose(0);
    none.set(filled(0, 1));
    assert.throws(() => none.set(filled(1, 1)), countError(/holds 3 elements; expected 0/));
    for (const p of [m, other, two, none]) p.dispose();
    t.dispose();
  });

  test(`${flavour}: ModulePose.copyTo refuses a target of the wrong length and writes nothing`, async () => {
    const t = await loadTendon({ flavour });
    const m = t.createPose(3);
    m.set(filled(3, 0.5));
    for (const key of ['translation', 'rotation', 'scale']) {
      for (const delta of [-1, 1, WIDTH[key]]) {
        const target = resized(filled(3, 9), key, delta);
        const before = contents(target);
        assert.throws(() => m.copyTo(target),
                      countError(new RegExp(`pose\\.copyTo: ${key} \\(${WIDTH[key]} floats × 3 joints\\) ` +
                                            `holds ${3 * WIDTH[key] + delta} elements; expected ${3 * WIDTH[key]}`)));
        assert.deepEqual(contents(target), before, `${key} ${delta}: the target is untouched`);
      }
    }
    const ok = filled(3, 9);
    m.copyTo(ok);
    assert.deepEqual(contents(ok), contents(filled(3, 0.5)));
    m.dispose();
    t.dispose();
  });

  test(`${flavour}: blendPoses / addPose refuse plain poses whose arrays do not match`, async () => {
    const t = await loadTendon({ flavour });
    const a = filled(2, 0), b = filled(2, 0);
    a.rotation.set([0, 0, 0, 1, 0, 0, 0, 1]);
    b.rotation.set([0, 0, 0, 1, 0, 0, 0, 1]);
    b.translation.set([2, 4, 6, 8, 10, 12]);
    for (const key of ['translation', 'scale']) {
      for (const delta of [-1, 1, 3]) {
        // a longer translation used to be cut to the rotation's joint count silently; a shorter
        // one copied its prefix over the scratch pose's previous contents
        const out = filled(2, 0);
        assert.throws(() => t.blendPoses(resized(a, key, delta), b, 0.5, out),
                      countError(new RegExp(`^a: rotation holds 8 floats and translation ${key === 'translation' ? 6 + delta : 6}, ` +
                                            `scale ${key === 'scale' ? 6 + delta : 6}; expected 4n, 3n and 3n for n joints$`)),
                      `a.${key} ${delta}`);
        assert.throws(() => t.addPose(a, b, 1, resized(out, key, delta)),
                      countError(/^out: rotation holds 8 floats/), `out.${key} ${delta}`);
        assert.deepEqual([...out.translation], [0, 0, 0, 0, 0, 0], 'out untouched');
      }
    }
    // the matching ones still blend: translation halfway
    const out = filled(2, 0);
    t.blendPoses(a, b, 0.5, out);
    assert.deepEqual([...out.translation], [1, 2, 3, 4, 5, 6]);
    t.dispose();
  });

  test(`${flavour}: a skeleton's rest pose of the wrong length is refused`, async () => {
    const t = await loadTendon({ flavour });
    const rest = { translation: new Float32Array(6), rotation: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1]),
                   scale: new Float32Array(6).fill(1) };
    for (const key of ['translation', 'scale'])
      assert.throws(() => t.createSkeleton({ parents: [-1, 0], rest: resized(rest, key, 3) }),
                    countError(/skeleton: rest: rotation holds 8 floats/), key);
    const sk = t.createSkeleton({ parents: [-1, 0], rest });
    sk.dispose();
    t.dispose();
  });
}
