// The seed corpus (tests/data/seed) replayed through the JavaScript binding, on both modules,
// against the native `tendon replay` of the same files: every output bit for bit (−0 and NaN
// kept apart from 0 and numbers), every refusal with the same status and the same message. The
// native tool is $TENDON_NATIVE (tools/quickstart sets it) or build/tools/tendon.
//
// The spring cases run three times, once per kind of anchor the binding takes: a JavaScript
// function (its calls counted: how many, and the first, second and last times must equal the
// native anchor's), a batched function (every time in one call), and the declarative anchor
// evaluated in the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTendon, TendonError } from '../tendon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const top = join(here, '..', '..');
const seedDir = join(top, 'tests', 'data', 'seed');
const native = process.env.TENDON_NATIVE || join(top, 'build', 'tools', 'tendon');

const num = (v) => (typeof v === 'string' && /^-?(Infinity|NaN)$/.test(v) ? Number(v) : v);
const nums = (a) => a.map(num);

function nativeReplay(file) {
  assert.ok(existsSync(native), `the native tendon (${native}) is built: cmake --build --preset default`);
  let out;
  try {
    out = execFileSync(native, ['replay'], { input: readFileSync(join(seedDir, file)),
                                             maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout; // exit 2 (a JavaScript-only case) still writes every case
  }
  const byId = new Map();
  for (const c of JSON.parse(out.toString('utf8'))) byId.set(c.id, c.actual);
  return byId;
}

// The seed's anchor kinds in JavaScript, as `tendon replay` evaluates them (Math.sin for sin).
function anchorValue(a, t, v) {
  switch (a.kind) {
    case 'constant': for (let k = 0; k < 3; k++) v[k] = num(a.value[k]); break;
    case 'linear': for (let k = 0; k < 3; k++) v[k] = num(a.origin[k]) + num(a.velocity[k]) * t; break;
    case 'sine': {
      const s = Math.sin(((2.0 * 3.141592653589793) * num(a.frequencyHz)) * t + num(a.phase));
      const c = a.center ?? [0, 0, 0];
      for (let k = 0; k < 3; k++) v[k] = num(c[k]) + num(a.amplitude[k]) * s;
      break;
    }
    case 'step': {
      const src = t < num(a.at) ? a.from : a.to;
      for (let k = 0; k < 3; k++) v[k] = num(src[k]);
      break;
    }
    case 'keys': {
      const times = nums(a.times), n = times.length;
      if (!(t > times[0])) for (let k = 0; k < 3; k++) v[k] = num(a.values[0][k]);
      else if (t >= times[n - 1]) for (let k = 0; k < 3; k++) v[k] = num(a.values[n - 1][k]);
      else {
        let j = 0;
        while (j + 1 < n && times[j + 1] <= t) j++;
        const u = (t - times[j]) / (times[j + 1] - times[j]);
        for (let k = 0; k < 3; k++) {
          const x = num(a.values[j][k]), y = num(a.values[j + 1][k]);
          v[k] = x + (y - x) * u;
        }
      }
      break;
    }
    default: throw new Error(`anchor kind ${a.kind}`);
  }
}
function jsAnchor(a, calls) {
  const v = [0, 0, 0];
  return (t, out) => {
    if (calls.count === 0) calls.first = t;
    else if (calls.count === 1) calls.second = t;
    calls.last = t;
    calls.count++;
    anchorValue(a, t, v);
    out[0] = v[0]; out[1] = v[1]; out[2] = v[2];
  };
}
function batchAnchor(a) {
  const v = [0, 0, 0];
  return { batch(times, out) {
    for (let i = 0; i < times.length; i++) {
      anchorValue(a, times[i], v);
      out[3 * i] = v[0]; out[3 * i + 1] = v[1]; out[3 * i + 2] = v[2];
    }
  } };
}

const settings = (s) => ({ frequencyHz: num(s.frequencyHz), damping: num(s.damping),
                           maxOffsetM: s.maxOffsetM === undefined ? undefined : num(s.maxOffsetM) });
const links = (ls) => ls.map((l) => ({ ...settings(l), restOffsetM: nums(l.restOffsetM) }));
const declarative = (a) => JSON.parse(JSON.stringify(a), (k, v) => num(v));

function sameFloats(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const e = Math.fround(num(expected[i])), g = Math.fround(actual[i]);
    assert.ok(Object.is(e, g), `${what}[${i}]: binding ${g}, native ${e}`);
  }
}

// One case through the binding: its `actual`, in the shape `tendon replay` writes.
function run(tendon, c, anchorKind) {
  const refusal = (e) => {
    if (!(e instanceof TendonError)) throw e;
    return { error: e.message, status: e.statusName };
  };
  try {
    switch (c.op) {
      case 'blendPoses':
      case 'addPose': {
        const [pa, pb, w] = c.op === 'blendPoses' ? [c.a, c.b, c.t] : [c.base, c.delta, c.weight];
        const n = pa.rotation.length / 4;
        const a = tendon.createPose(n), b = tendon.createPose(n);
        for (const [m, p] of [[a, pa], [b, pb]])
          m.set({ translation: nums(p.translation), rotation: nums(p.rotation), scale: nums(p.scale) });
        const out = c.alias === 'a' ? a : c.alias === 'b' ? b : tendon.createPose(n);
        try {
          if (c.op === 'blendPoses') tendon.blend(a, b, num(w), out);
          else tendon.add(a, b, num(w), out);
          return { out: { translation: [...out.translation], rotation: [...out.rotation],
                          scale: [...out.scale] } };
        } finally {
          for (const p of new Set([a, b, out])) p.dispose();
        }
      }
      case 'setJoint': {
        const p = c.pose, n = p.rotation.length / 4, m = tendon.createPose(n);
        try {
          m.set({ translation: nums(p.translation), rotation: nums(p.rotation), scale: nums(p.scale) });
          tendon.setJoint(m, num(c.joint), nums(c.translation), nums(c.rotation), nums(c.scale));
          return { out: { translation: [...m.translation], rotation: [...m.rotation], scale: [...m.scale] } };
        } finally { m.dispose(); }
      }
      case 'springSettleSec': return { value: tendon.springSettleSec(settings(c.settings)) };
      case 'springChainSettleSec': return { value: tendon.springChainSettleSec(links(c.links)) };
      case 'sampleSpring':
      case 'sampleSpringChain': {
        const calls = { count: 0 };
        const anchor = anchorKind === 'function' ? jsAnchor(c.anchor, calls)
                     : anchorKind === 'batch' ? batchAnchor(c.anchor) : declarative(c.anchor);
        const out = c.op === 'sampleSpring'
          ? tendon.sampleSpring(settings(c.settings), anchor, num(c.time))
          : tendon.sampleSpringChain(links(c.links), anchor, num(c.time),
                                     new Float32Array(c.outLength ?? 3 * c.links.length));
        return { out: [...out], calls };
      }
      default: return null; // not a call of the binding (stateMachine)
    }
  } catch (e) {
    return refusal(e);
  }
}

const FILES = ['blend.json', 'add.json', 'setJoint.json', 'edge.json', 'spring.json', 'chain.json',
               'settle.json', 'errors.json'];

for (const flavour of ['simd128', 'scalar']) {
  test(`seed corpus through the binding (${flavour} module) = native tendon replay`, async (t) => {
    const tendon = await loadTendon({ flavour });
    let compared = 0;
    for (const file of FILES) {
      const cases = JSON.parse(readFileSync(join(seedDir, file), 'utf8'));
      const expected = nativeReplay(file);
      for (const c of cases) {
        const want = expected.get(c.id);
        assert.ok(want, `${file} ${c.id}: native replay wrote it`);
        const kinds = c.op === 'sampleSpring' || c.op === 'sampleSpringChain'
          ? ['function', 'batch', 'declarative'] : ['-'];
        for (const kind of kinds) {
          const what = `${file} ${c.id} (${c.op}${kind === '-' ? '' : `, ${kind} anchor`})`;
          if (want.error !== undefined && want.status === undefined) continue; // malformed for C
          const got = run(tendon, c, kind);
          if (got === null) continue;
          if (want.error !== undefined) {
            assert.deepEqual(got, { error: want.error, status: want.status }, what);
          } else if (want.value !== undefined) {
            assert.ok(Object.is(got.value, num(want.value)), `${what}: ${got.value} vs ${want.value}`);
          } else if (Array.isArray(want.out)) {
            assert.equal(got.error, undefined, `${what}: refused: ${got.error}`);
            sameFloats(got.out, want.out, what);
            if (kind === 'function') {
              assert.equal(got.calls.count, want.anchorCalls.count, `${what}: anchor calls`);
              for (const k of ['first', 'second', 'last'])
                if (want.anchorCalls[k] !== undefined)
                  assert.ok(Object.is(got.calls[k], num(want.anchorCalls[k])), `${what}: ${k} time`);
            }
          } else {
            assert.equal(got.error, undefined, `${what}: refused: ${got.error}`);
            for (const part of ['translation', 'rotation', 'scale'])
              sameFloats(got.out[part], want.out[part], `${what} ${part}`);
          }
          compared++;
        }
      }
    }
    tendon.dispose();
    t.diagnostic(`${compared} case runs bit-identical to native`);
    assert.ok(compared > 300, `${compared} case runs compared`);
  });
}
