// Runs `tendon digest` built for wasm32-wasi (wasm/dist/tendon-digest-<flavour>.wasm) under
// node's WASI. Used by digest.test.mjs; also a command:
//   node wasm/test/run-digest.mjs wasm/dist/tendon-digest-simd128.wasm [digest options...]
import { readFileSync, openSync, closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WASI } from 'node:wasi';
import { pathToFileURL } from 'node:url';

// args: the digest command's arguments; every path in them must lie under `root`, which the
// module sees as /root.
export async function runDigest(wasmPath, args, root) {
  const dir = mkdtempSync(join(tmpdir(), 'tendon-wasm-digest-'));
  const outPath = join(dir, 'stdout'), errPath = join(dir, 'stderr');
  const out = openSync(outPath, 'w'), err = openSync(errPath, 'w');
  let code;
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: ['tendon-digest', 'digest', ...args],
      env: {},
      preopens: { '/root': resolve(root) },
      stdout: out,
      stderr: err,
      returnOnExit: true,
    });
    const module = await WebAssembly.compile(readFileSync(wasmPath));
    const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
    code = wasi.start(instance);
  } finally {
    closeSync(out);
    closeSync(err);
  }
  const stdout = readFileSync(outPath, 'utf8'), stderr = readFileSync(errPath, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [wasmPath, ...args] = process.argv.slice(2);
  const r = await runDigest(wasmPath, args, process.cwd());
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exitCode = r.code;
}
