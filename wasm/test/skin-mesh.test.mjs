// The prepared skin mesh and dual-quaternion skinning through the binding (createSkinMesh,
// ModuleSkinMesh.apply / applyRange / applyDualQuat / applyDualQuatRange, paletteToDualQuat), on
// both modules:
// - the native reference: the golden digest's skin_mesh, palette_to_dual_quat and skin_mesh_dq
//   lines (tests/data/golden.digest, made natively and checked on every native ISA by the
//   native digest test) reproduced through the binding: the digest's own seeded workload
//   (tools/tendon/digest.c: splitmix64, dg_vectors, dg_rigid, … written again below in
//   JavaScript, in the same double arithmetic) run through the binding's calls, hashed as the
//   digest hashes (SHA-256 of little-endian float32, every NaN as 0x7fc00000), the hash compared
//   with the golden file's whatever it holds;
// - apply against the binding's own tendon_skin (Tendon.skin), bit for bit, on random inputs;
// - ranges concatenated against the whole apply; DQ against LBS on a rigid palette within a
//   stated bound; the refusals; 50 create / dispose rounds that do not grow the memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTendon, TendonError } from '../tendon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const goldenPath = join(here, '..', '..', 'tests', 'data', 'golden.digest');
const FLAVOURS = ['simd128', 'scalar'];
const f32 = Math.fround;

function golden(kernel) {
  const m = new RegExp(`^${kernel} ([0-9a-f]{64})$`, 'm').exec(readFileSync(goldenPath, 'utf8'));
  assert.ok(m, `${kernel} is in ${goldenPath}`);
  return m[1];
}

const bitsOf = (a) => new Uint32Array(Float32Array.from(a).buffer);
/** Bit-for-bit equality of two float arrays, naming the first element that differs. */
function sameBits(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const a = bitsOf(actual), e = bitsOf(expected);
  for (let i = 0; i < a.length; i++)
    if (a[i] !== e[i])
      assert.fail(`${what}: element ${i} is ${actual[i]} (0x${a[i].toString(16)}), expected ` +
                  `${expected[i]} (0x${e[i].toString(16)})`);
}
const tendonError = (statusName, pattern) => (e) => {
  assert.ok(e instanceof TendonError, `a TendonError, not ${e}`);
  assert.equal(e.statusName, statusName, e.message);
  assert.match(e.message, pattern);
  return true;
};

// ---- the digest's workload (tools/tendon/digest.c), in JavaScript ----------------------------
const M64 = (1n << 64n) - 1n;
/** splitmix64, as dg_next. */
class Rng {
  constructor(seed) { this.s = BigInt(seed); }
  next() {
    this.s = (this.s + 0x9e3779b97f4a7c15n) & M64;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  unit() { return Number(this.next() >> 11n) * 2 ** -53; }
  range(lo, hi) { return lo + (hi - lo) * this.unit(); }
  below(n) { return Number(this.next() % BigInt(n)); }
}
/** dg_sqrt: Newton from a power-of-two guess. */
function dgSqrt(s) {
  if (!(s > 0 && s < 1e300)) return 1;
  let y = 1;
  while (y * y > 4 * s) y *= 0.5;
  while (y * y < 0.25 * s) y *= 2;
  for (let i = 0; i < 8; i++) y = 0.5 * (y + s / y);
  return y;
}
function dgRandomUnit(r) {
  const q = [0, 0, 0, 0];
  for (;;) {
    for (let c = 0; c < 4; c++) q[c] = r.range(-1, 1);
    const s = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    if (s > 1e-4 && s <= 1) break;
  }
  const len = dgSqrt(((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3]);
  for (let c = 0; c < 4; c++) q[c] /= len;
  return q;
}
const SPECIAL_FLOATS = [0, -0, 1, -1, 1e-40, -1e-45, 1e-38, 3e38, -3e38, 1e-20, 1e20, 0.5, NaN,
                        Infinity, -Infinity, 2 ** -126].map(f32);
function dgVectors(r, v, at, n, lo, hi) {
  for (let i = 0; i < n; i++)
    v[at + i] = r.below(8) === 0 ? SPECIAL_FLOATS[r.below(SPECIAL_FLOATS.length)] : f32(r.range(lo, hi));
}
/** dg_rigid: a rotation, a uniform scale (1, 1 + 2^-22 or in [0.5, 2]), a translation in ±3. */
function dgRigid(r, m, at) {
  const [x, y, z, w] = dgRandomUnit(r);
  const pick = r.below(6);
  const s = pick < 2 ? 1 : pick === 2 ? 1 + 2 ** -22 : r.range(0.5, 2);
  const R = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
             2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
             2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)];
  for (let c = 0; c < 3; c++) {
    for (let e = 0; e < 3; e++) m[at + 4 * c + e] = f32(R[3 * c + e] * s);
    m[at + 4 * c + 3] = 0;
    m[at + 12 + c] = f32(r.range(-3, 3));
  }
  m[at + 15] = 1;
}
const DG_N = 1024, DG_PALETTE = 70;
const SPANS = [[0, 0], [1, 0], [1, 3], [2, 1], [3, 0], [4, 2], [5, 1], [6, 0], [7, 0], [8, 3],
               [9, 5], [10, 2], [11, 1], [15, 1], [16, 0], [17, 2], [23, 4], [31, 3], [32, 1],
               [33, 0], [63, 7], [64, 4], [65, 2], [1003, 0], [1003, 5]];

/** dg_sink: SHA-256 of float32 bits, little-endian, every NaN as 0x7fc00000. */
class Sink {
  constructor() { this.h = createHash('sha256'); }
  floats(a) {
    const u = new Uint32Array(Float32Array.from(a).buffer);
    for (let i = 0; i < u.length; i++) if ((u[i] & 0x7fffffff) > 0x7f800000) u[i] = 0x7fc00000;
    const b = new Uint8Array(u.buffer);
    if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) // big-endian host: swap
      for (let i = 0; i < b.length; i += 4) { [b[i], b[i + 3]] = [b[i + 3], b[i]]; [b[i + 1], b[i + 2]] = [b[i + 2], b[i + 1]]; }
    this.h.update(b);
  }
  hex() { return this.h.digest('hex'); }
}

/** The hashed sequence of one apply: per vertex, the position, normal and tangent asked for. */
function hashVertices(sink, n, op, on, ot) {
  const per = (op ? 3 : 0) + (on ? 3 : 0) + (ot ? 4 : 0);
  const seq = new Float32Array(n * per);
  const P = op && op.array, N = on && on.array, T = ot && ot.array;
  for (let v = 0, k = 0; v < n; v++) {
    if (P) for (let c = 0; c < 3; c++) seq[k++] = P[3 * v + c];
    if (N) for (let c = 0; c < 3; c++) seq[k++] = N[3 * v + c];
    if (T) for (let c = 0; c < 4; c++) seq[k++] = T[4 * v + c];
  }
  sink.floats(seq);
}

/** The digest's three ranges: split at a third and two thirds (and one vertex). */
const thirds = (n) => { const a = Math.floor(n / 3), b = Math.floor(2 * n / 3) + (n > 2 ? 1 : 0); return [[0, a], [a, b - a], [b, n - b]]; };

/** The mesh of span (n, o) with ni influences: the digest's strided job, tightly packed here. */
function spanMesh(t, attrs, idx, n, o, ni, u16, { normals = true, tangents = true } = {}) {
  const joints = u16 ? new Uint16Array(ni * n) : new Uint8Array(ni * n), weights = new Float32Array(ni * n);
  for (let v = 0; v < n; v++)
    for (let i = 0; i < ni; i++) {
      joints[ni * v + i] = idx[4 * (o + v) + i];
      weights[ni * v + i] = attrs[4 * (o + v) + i];
    }
  return t.createSkinMesh({
    paletteCount: DG_PALETTE, influenceCount: ni, joints, weights,
    positions: attrs.subarray(4 * DG_N + 3 * o, 4 * DG_N + 3 * (o + n)),
    normals: normals ? attrs.subarray(7 * DG_N + 3 * o, 7 * DG_N + 3 * (o + n)) : undefined,
    tangents: tangents ? attrs.subarray(10 * DG_N + 4 * o, 10 * DG_N + 4 * (o + n)) : undefined,
  });
}

for (const flavour of FLAVOURS) {
  test(`${flavour}: the golden digest's skin_mesh through ModuleSkinMesh.apply / applyRange`, async () => {
    const t = await loadTendon({ flavour });
    const palette = t.createFloats(16 * DG_PALETTE);
    dgVectors(new Rng(0x5c1e0014), palette.array, 0, 16 * DG_PALETTE, -2, 2);
    const attrs = new Float32Array(14 * DG_N), idx = new Uint16Array(4 * DG_N);
    const r = new Rng(0x5c1e0015);
    dgVectors(r, attrs, 4 * DG_N, 10 * DG_N, -2, 2);
    const SPECIAL_W = [0, -0, 1, 1e-40, -0.5, 3e38, 1.5, 0.25].map(f32);
    for (let i = 0; i < 4 * DG_N; i++) {
      attrs[i] = r.below(8) === 0 ? SPECIAL_W[r.below(8)] : f32(r.range(-0.25, 1.25));
      idx[i] = r.below(DG_PALETTE);
    }
    const op = t.createFloats(3 * DG_N), on = t.createFloats(3 * DG_N), ot = t.createFloats(4 * DG_N);
    const sink = new Sink();
    for (const [n, o] of SPANS)
      for (let ni = 1; ni <= 4; ni++)
        for (const u16 of [false, true]) {
          const mesh = spanMesh(t, attrs, idx, n, o, ni, u16);
          assert.equal(mesh.vertexCount, n);
          // the digest's second pass writes 48-byte interleaved vertices: the same values a
          // vertex (a vertex's result does not depend on the output strides), hashed again
          for (let interleaved = 0; interleaved < 2; interleaved++)
            for (let want = 0; want < 5; want++) {
              const wp = want === 3 ? null : op, wn = want >= 1 ? on : null;
              const wt = want === 2 || want === 4 ? ot : null;
              for (const b of [op, on, ot]) b.array.fill(0);
              if (want < 4) mesh.apply(palette, wp, wn, wt);
              else for (const [first, count] of thirds(n)) mesh.applyRange(first, count, palette, wp, wn, wt);
              hashVertices(sink, n, wp, wn, wt);
            }
          mesh.dispose();
        }
    assert.equal(sink.hex(), golden('skin_mesh'), 'skin_mesh: the golden (native) hash');
    for (const b of [palette, op, on, ot]) b.dispose();
  });

  test(`${flavour}: the golden digest's palette_to_dual_quat and skin_mesh_dq through the binding`, async () => {
    const t = await loadTendon({ flavour });
    // palette_to_dual_quat: every span of rigid matrices, one refused entry, 1003 in place
    {
      const pal = new Float32Array(16 * DG_N), r = new Rng(0xd0a10016);
      for (let j = 0; j < DG_N; j++) dgRigid(r, pal, 16 * j);
      const sink = new Sink();
      for (const [n, o] of SPANS) {
        const src = t.createFloats(16 * n), dst = t.createFloats(16 * n);
        src.array.set(pal.subarray(16 * o, 16 * (o + n)));
        assert.equal(t.paletteToDualQuat(src, n, dst), dst);
        sink.floats([n]); // the kernel's count converted: all of them
        sink.floats(dst.array);
        src.dispose(); dst.dispose();
      }
      const bad = t.createFloats(16 * 40), out = t.createFloats(16 * 40);
      bad.array.set(pal.subarray(0, 16 * 40));
      bad.array[16 * 29 + 5] = f32(bad.array[16 * 29 + 5] * 1.5); // a non-uniform scale at entry 29
      out.array.fill(7);
      let refused;
      assert.throws(() => t.paletteToDualQuat(bad, 40, out), (e) => {
        refused = e;
        return tendonError('TENDON_ERR_VALUE', /palette entry 29 /)(e);
      });
      assert.ok(out.array.every((v) => v === 7), 'nothing is written on a refusal');
      // the digest hashes the kernel's answer, the first refused entry: the message names it
      sink.floats([Number(/palette entry (\d+) /.exec(refused.message)[1])]);
      const inPlace = t.createFloats(16 * 1003);
      inPlace.array.set(pal.subarray(0, 16 * 1003));
      t.paletteToDualQuat(inPlace, 1003, inPlace);
      sink.floats(inPlace.array);
      assert.equal(sink.hex(), golden('palette_to_dual_quat'), 'palette_to_dual_quat: the golden (native) hash');
      for (const b of [bad, out, inPlace]) b.dispose();
    }
    // skin_mesh_dq: a rigid palette with scales and the same rotations without, every other span
    const r = new Rng(0xd0a10017);
    const dqs = [];
    for (let unit = 0; unit < 2; unit++) {
      const pal = t.createFloats(16 * DG_PALETTE), p = pal.array;
      for (let j = 0; j < DG_PALETTE; j++) {
        dgRigid(r, p, 16 * j);
        if (unit)
          for (let c = 0; c < 3; c++) {
            let l = 0;
            for (let e = 0; e < 3; e++) l += p[16 * j + 4 * c + e] * p[16 * j + 4 * c + e];
            l = dgSqrt(l);
            for (let e = 0; e < 3; e++) p[16 * j + 4 * c + e] = f32(p[16 * j + 4 * c + e] / l);
          }
      }
      dqs.push(t.paletteToDualQuat(pal, DG_PALETTE)); // a new ModuleFloats
      assert.equal(dqs[unit].length, 16 * DG_PALETTE);
      pal.dispose();
    }
    const attrs = new Float32Array(14 * DG_N), idx = new Uint16Array(4 * DG_N);
    dgVectors(r, attrs, 4 * DG_N, 10 * DG_N, -2, 2);
    for (let i = 0; i < 4 * DG_N; i++) {
      attrs[i] = f32(r.range(-0.25, 1.25));
      idx[i] = r.below(DG_PALETTE);
    }
    const op = t.createFloats(3 * DG_N), on = t.createFloats(3 * DG_N), ot = t.createFloats(4 * DG_N);
    const sink = new Sink();
    for (let s = 0; s < SPANS.length; s += 2) {
      const [n, o] = SPANS[s];
      for (let ni = 1; ni <= 4; ni++) {
        const mesh = spanMesh(t, attrs, idx, n, o, ni, true);
        for (let interleaved = 0; interleaved < 2; interleaved++) // as in skin_mesh: the same values
          for (const dq of dqs)
            for (let want = 0; want < 4; want++) {
              const wn = want >= 1 ? on : null, wt = want >= 2 ? ot : null;
              for (const b of [op, on, ot]) b.array.fill(0);
              if (want < 3) mesh.applyDualQuat(dq, op, wn, wt);
              else for (const [first, count] of thirds(n)) mesh.applyDualQuatRange(first, count, dq, op, wn, wt);
              hashVertices(sink, n, op, wn, wt);
            }
        mesh.dispose();
      }
    }
    assert.equal(sink.hex(), golden('skin_mesh_dq'), 'skin_mesh_dq: the golden (native) hash');
    for (const b of [...dqs, op, on, ot]) b.dispose();
  });

  test(`${flavour}: mesh apply equals Tendon.skin bit for bit; ranges concatenated equal apply`, async () => {
    const t = await loadTendon({ flavour });
    const r = new Rng(0x5e5e0001 + (flavour === 'scalar' ? 1 : 0));
    const P = 23, palette = t.createFloats(16 * P);
    for (let i = 0; i < 16 * P; i++) palette.array[i] = f32(r.range(-2, 2));
    let cases = 0;
    for (const n of [1, 15, 16, 17, 100]) {
      for (let ni = 1; ni <= 4; ni++) {
        for (const u16 of [false, true]) {
          const jointsU16 = t.createU16(ni * n), weights = t.createFloats(ni * n);
          const positions = t.createFloats(3 * n), normals = t.createFloats(3 * n), tangents = t.createFloats(4 * n);
          for (let i = 0; i < ni * n; i++) {
            jointsU16.array[i] = r.below(P);
            weights.array[i] = r.below(6) === 0 ? 0 : f32(r.range(-0.25, 1.25));
          }
          for (let i = 0; i < 3 * n; i++) { positions.array[i] = f32(r.range(-2, 2)); normals.array[i] = f32(r.range(-1, 1)); }
          for (let i = 0; i < 4 * n; i++) tangents.array[i] = i % 4 === 3 ? (r.below(2) ? 1 : -1) : f32(r.range(-1, 1));
          const lbs = t.createFloats(3 * n), lbsN = t.createFloats(3 * n);
          t.skin({ palette, paletteCount: P, vertexCount: n, influenceCount: ni, joints: jointsU16,
                   weights, positions, outPositions: lbs, outNormals: lbsN, normals });
          // u8: plain typed arrays and an Array of weights, copied in; u16: the module objects
          const mesh = u16
            ? t.createSkinMesh({ paletteCount: P, influenceCount: ni, joints: jointsU16, weights,
                                 positions, normals, tangents })
            : t.createSkinMesh({ paletteCount: P, influenceCount: ni,
                                 joints: Uint8Array.from(jointsU16.array), weights: Array.from(weights.array),
                                 positions: Float32Array.from(positions.array),
                                 normals: Float32Array.from(normals.array), tangents: Float32Array.from(tangents.array) });
          assert.deepEqual([mesh.vertexCount, mesh.influenceCount, mesh.paletteCount], [n, ni, P]);
          assert.deepEqual({ ...mesh.outputs }, { positions: true, normals: true, tangents: true });
          const op = t.createFloats(3 * n), on = t.createFloats(3 * n), ot = t.createFloats(4 * n);
          mesh.apply(palette, op, on, ot);
          const what = `${n} vertices, ${ni} influences, ${u16 ? 'u16' : 'u8'}`;
          sameBits(op.array, lbs.array, `${what}: positions against Tendon.skin`);
          sameBits(on.array, lbsN.array, `${what}: normals against Tendon.skin`);
          // ranges: random cuts (a 16-vertex block boundary among them), into NaN-filled outputs
          const whole = [Float32Array.from(op.array), Float32Array.from(on.array), Float32Array.from(ot.array)];
          const cuts = [...new Set([0, n, Math.min(16, n), r.below(n + 1), r.below(n + 1)])].sort((a, b) => a - b);
          for (const b of [op, on, ot]) b.array.fill(NaN);
          for (let k = 0; k + 1 < cuts.length; k++) mesh.applyRange(cuts[k], cuts[k + 1] - cuts[k], palette, op, on, ot);
          sameBits(op.array, whole[0], `${what}: ranges ${cuts} positions`);
          sameBits(on.array, whole[1], `${what}: ranges ${cuts} normals`);
          sameBits(ot.array, whole[2], `${what}: ranges ${cuts} tangents`);
          // positions only, and a range of 0 vertices, write nothing else
          for (const b of [op, on, ot]) b.array.fill(NaN);
          mesh.applyRange(n, 0, palette, op, on, ot);
          assert.ok(op.array.every(Number.isNaN), 'an empty range writes nothing');
          mesh.apply(palette, op);
          sameBits(op.array, whole[0], `${what}: positions alone`);
          assert.ok(on.array.every(Number.isNaN), 'normals not asked for are not written');
          for (const b of [jointsU16, weights, positions, normals, tangents, lbs, lbsN, op, on, ot, mesh]) b.dispose();
          cases++;
        }
      }
    }
    assert.equal(cases, 40);
    palette.dispose();
  });

  test(`${flavour}: dual quaternions of a rigid palette skin as LBS does, within 4 float32 ulp of 8 m`, async () => {
    const t = await loadTendon({ flavour });
    const r = new Rng(0xd0a1dead);
    const P = 12, palette = t.createFloats(16 * P);
    // rotations and translations only (dg_rigid's scale forced to 1 by normalising the columns)
    for (let j = 0; j < P; j++) {
      const [x, y, z, w] = dgRandomUnit(r);
      const R = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                 2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                 2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)];
      const m = palette.array;
      for (let c = 0; c < 3; c++) {
        for (let e = 0; e < 3; e++) m[16 * j + 4 * c + e] = f32(R[3 * c + e]);
        m[16 * j + 12 + c] = f32(r.range(-3, 3));
      }
      m[16 * j + 15] = 1;
    }
    const dq = t.paletteToDualQuat(palette, P);
    // |position| ≤ 2√3 and |translation| ≤ 3√3: skinned positions within ~8.7 m, where a float32
    // ulp is 2^-20 (< 9.6e-7): the bound is 4 of those. Unit normals and tangents: 4 ulp of 1.
    const POS = 4 * 2 ** -20, DIR = 4 * 2 ** -23;
    let worstP = 0, worstD = 0;
    const n = 100;
    for (let ni = 1; ni <= 4; ni++) {
      // every influence of a vertex names one joint, with dyadic weights summing to exactly 1:
      // the blend is that joint's transform, which LBS and DQ each compute in their own way
      const W = [[1], [0.75, 0.25], [0.5, 0.25, 0.25], [0.5, 0.25, 0.125, 0.125]][ni - 1];
      const joints = new Uint16Array(ni * n), weights = new Float32Array(ni * n);
      const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n), tangents = new Float32Array(4 * n);
      for (let v = 0; v < n; v++) {
        const j = r.below(P);
        for (let i = 0; i < ni; i++) { joints[ni * v + i] = j; weights[ni * v + i] = W[i]; }
        for (let c = 0; c < 3; c++) positions[3 * v + c] = f32(r.range(-2, 2));
        const nq = dgRandomUnit(r), tq = dgRandomUnit(r); // unit 3-vectors from the first three
        const nl = Math.hypot(nq[0], nq[1], nq[2]), tl = Math.hypot(tq[0], tq[1], tq[2]);
        for (let c = 0; c < 3; c++) { normals[3 * v + c] = f32(nq[c] / nl); tangents[4 * v + c] = f32(tq[c] / tl); }
        tangents[4 * v + 3] = v % 2 ? -1 : 1;
      }
      const mesh = t.createSkinMesh({ paletteCount: P, influenceCount: ni, joints, weights, positions, normals, tangents });
      const lp = t.createFloats(3 * n), ln = t.createFloats(3 * n), lt = t.createFloats(4 * n);
      const dp = t.createFloats(3 * n), dn = t.createFloats(3 * n), dt = t.createFloats(4 * n);
      mesh.apply(palette, lp, ln, lt);
      mesh.applyDualQuat(dq, dp, dn, dt);
      for (let i = 0; i < 3 * n; i++) {
        worstP = Math.max(worstP, Math.abs(lp.array[i] - dp.array[i]));
        worstD = Math.max(worstD, Math.abs(ln.array[i] - dn.array[i]));
      }
      for (let i = 0; i < 4 * n; i++)
        if (i % 4 === 3) assert.equal(dt.array[i], lt.array[i], 'tangent w kept');
        else worstD = Math.max(worstD, Math.abs(lt.array[i] - dt.array[i]));
      // and the DQ ranges concatenated equal the whole DQ apply
      const whole = Float32Array.from(dp.array);
      dp.array.fill(NaN);
      for (const [first, count] of [[0, 17], [17, 15], [32, 68]]) mesh.applyDualQuatRange(first, count, dq, dp);
      sameBits(dp.array, whole, `${ni} influences: DQ ranges`);
      for (const b of [mesh, lp, ln, lt, dp, dn, dt]) b.dispose();
    }
    assert.ok(worstP <= POS, `positions: DQ − LBS up to ${worstP} m; bound ${POS}`);
    assert.ok(worstD <= DIR, `normals and tangents: DQ − LBS up to ${worstD}; bound ${DIR}`);
    assert.ok(worstP > 0, 'the two methods do round differently (the comparison is not of one call with itself)');
    dq.dispose(); palette.dispose();
  });

  test(`${flavour}: refused creations and applies carry tendon's message; dispose frees`, async () => {
    const t = await loadTendon({ flavour });
    const n = 40, ni = 3, P = 9;
    const base = () => ({
      paletteCount: P, influenceCount: ni,
      joints: Uint8Array.from({ length: ni * n }, (_, i) => i % P),
      weights: new Float32Array(ni * n).fill(f32(1 / 3)),
      positions: new Float32Array(3 * n), normals: new Float32Array(3 * n).fill(f32(Math.SQRT1_2)),
    });
    // a joint index past the palette: the vertex, the influence, the index and the palette size
    for (const type of [Uint8Array, Uint16Array]) {
      const d = base();
      d.joints = type.from(d.joints);
      d.joints[ni * 37 + 2] = P;
      assert.throws(() => t.createSkinMesh(d),
                    tendonError('TENDON_ERR_RANGE', /vertex 37, influence 2 has joint index 9, but the palette has 9 entries/));
    }
    // a non-finite weight: the vertex and the influence
    for (const w of [NaN, Infinity, -Infinity]) {
      const d = base();
      d.weights[ni * 21 + 1] = w;
      assert.throws(() => t.createSkinMesh(d), tendonError('TENDON_ERR_VALUE', /vertex 21, influence 1 has weight/));
    }
    assert.throws(() => t.createSkinMesh({ ...base(), influenceCount: 5 }), tendonError('TENDON_ERR_VALUE', /influence/));
    // the binding's own checks: lengths, types, values
    assert.throws(() => t.createSkinMesh({ ...base(), positions: new Float32Array(3 * n + 1) }),
                  tendonError('TENDON_ERR_COUNT', /positions holds 121 floats; expected 3 a vertex/));
    assert.throws(() => t.createSkinMesh({ ...base(), weights: new Float32Array(ni * n - 1) }),
                  tendonError('TENDON_ERR_COUNT', /weights \(3 floats × 40 vertices\) holds 119 elements; expected 120/));
    assert.throws(() => t.createSkinMesh({ ...base(), tangents: new Float32Array(3 * n) }),
                  tendonError('TENDON_ERR_COUNT', /tangents \(4 floats × 40 vertices\) holds 120 elements; expected 160/));
    assert.throws(() => t.createSkinMesh({ ...base(), joints: Array.from(base().joints) }), TypeError);
    assert.throws(() => t.createSkinMesh({ ...base(), joints: new Uint32Array(ni * n) }), TypeError);
    const other = await loadTendon({ flavour }), foreign = other.createFloats(3 * n);
    assert.throws(() => t.createSkinMesh({ ...base(), positions: foreign }), /positions belongs to another tendon instance/);
    foreign.dispose();
    const strings = Array.from(base().weights); strings[5] = '0.3';
    assert.throws(() => t.createSkinMesh({ ...base(), weights: strings }), tendonError('TENDON_ERR_VALUE', /weights\[5\] is string/));
    assert.throws(() => t.createSkinMesh({ ...base(), paletteCount: 2 ** 32 }), tendonError('TENDON_ERR_COUNT', /paletteCount/));
    // applies: a short palette or output, an output the mesh cannot write, a range past the end
    const mesh = t.createSkinMesh(base());
    assert.deepEqual({ ...mesh.outputs }, { positions: true, normals: true, tangents: false });
    const palette = t.createFloats(16 * P), op = t.createFloats(3 * n), on = t.createFloats(3 * n), ot = t.createFloats(4 * n);
    for (let j = 0; j < P; j++) palette.array.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, j, 0, 0, 1], 16 * j);
    const short = t.createFloats(16 * P - 1);
    assert.throws(() => mesh.apply(short, op), tendonError('TENDON_ERR_COUNT', /palette \(16 floats × 9 entries\) holds 143/));
    const shortOut = t.createFloats(3 * n - 1);
    assert.throws(() => mesh.apply(palette, shortOut), tendonError('TENDON_ERR_COUNT', /outPositions \(3 floats × 40 vertices\)/));
    assert.throws(() => mesh.apply(palette, op, on, ot), tendonError('TENDON_ERR_VALUE', /tangent/));
    assert.throws(() => mesh.applyRange(30, 11, palette, op), tendonError('TENDON_ERR_RANGE', /\[30, 30 \+ 11\).*40 vertices/));
    assert.throws(() => mesh.apply(palette, op, op), tendonError('TENDON_ERR_ALIAS', /./));
    mesh.apply(palette, op, on);
    // the palette's translation j moves a vertex by the mean of its joints' j (weights 1/3 each)
    assert.equal(op.array[3 * 4], f32(f32(f32(f32(1 / 3) * 3) + f32(f32(1 / 3) * 4)) + f32(f32(1 / 3) * 5)));
    const dq = t.paletteToDualQuat(palette, P);
    mesh.applyDualQuat(dq, op, on);
    assert.throws(() => t.paletteToDualQuat(palette, P + 1), tendonError('TENDON_ERR_COUNT', /palette \(16 floats × 10 entries\)/));
    mesh.dispose();
    mesh.dispose(); // idempotent
    assert.throws(() => mesh.apply(palette, op), /skin mesh was disposed/);
    assert.throws(() => mesh.applyDualQuat(dq, op), /skin mesh was disposed/);
    dq.dispose();
    assert.throws(() => t.createSkinMesh({ ...base(), weights: dq }), /disposed/);
    // 50 rounds of create / apply / dispose (a 20,000-vertex mesh with normals and tangents owns
    // ~1.3 MB; its inputs copied in as much again) and of refused creations: no growth after the
    // first round
    const V = 20000, big = {
      paletteCount: P, joints: Uint16Array.from({ length: 4 * V }, (_, i) => i % P),
      weights: new Float32Array(4 * V).fill(0.25), positions: new Float32Array(3 * V),
      normals: new Float32Array(3 * V).fill(1), tangents: new Float32Array(4 * V).fill(1),
    };
    const bp = t.createFloats(3 * V);
    let after1 = 0;
    for (let round = 0; round < 50; round++) {
      const m = t.createSkinMesh(big);
      assert.ok(m.memoryBytes >= 64 * V, `the mesh owns ${m.memoryBytes} bytes`);
      m.apply(palette, bp);
      const q = t.paletteToDualQuat(palette, P);
      m.applyDualQuat(q, bp);
      q.dispose();
      m.dispose();
      big.weights[7] = NaN;
      assert.throws(() => t.createSkinMesh(big), tendonError('TENDON_ERR_VALUE', /vertex 1, influence 3/));
      big.weights[7] = 0.25;
      if (round === 0) after1 = t.memory.buffer.byteLength;
    }
    assert.equal(t.memory.buffer.byteLength, after1, 'the module memory did not grow over 50 rounds');
    for (const b of [palette, op, on, ot, short, shortOut, bp]) b.dispose();
  });
}
