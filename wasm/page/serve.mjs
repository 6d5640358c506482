// The page's server (tools/quickstart wasm; docs/wasm.md, "The page"): serves wasm/ on
// localhost — the page, the binding and the built modules — and /native.json, the native
// `tendon demo --json` report of the same run (its per-ISA stage hashes and times), made when
// the server starts.
//   node wasm/page/serve.mjs [--port P] [--vertices V] [--seconds S] [--native build/tools/tendon]
// Prints "serving http://127.0.0.1:P/page/?vertices=V&seconds=S" when ready.
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
// Cross-origin isolation: the browser's performance.now() then has 5 µs resolution, not 100.
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const TYPES = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.js': 'text/javascript',
                '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css' };

export async function nativeReport(native, vertices, seconds) {
  const dir = await mkdtemp(join(tmpdir(), 'tendon-page-'));
  try {
    await promisify(execFile)(native, ['demo', '--vertices', String(vertices), '--seconds', String(seconds),
      '--no-emulated', '--json', join(dir, 'r.json'), '--chart', join(dir, 'c.svg'),
      '--picture', join(dir, 'p.svg')], { maxBuffer: 1 << 24 });
    return JSON.parse(await readFile(join(dir, 'r.json'), 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function serve({ port = 0, vertices = 20000, seconds = 2,
                              native = join(root, '..', 'build', 'tools', 'tendon') } = {}) {
  const report = JSON.stringify(await nativeReport(native, vertices, seconds));
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/native.json') {
      res.writeHead(200, { 'content-type': TYPES['.json'], ...ISOLATED });
      return res.end(report);
    }
    let path = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    if (path === '' || path.endsWith('/')) path += 'index.html';
    const file = join(root, path);
    if (!file.startsWith(root) || path.includes('node_modules')) { res.writeHead(404); return res.end(); }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...ISOLATED });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  const address = `http://127.0.0.1:${server.address().port}/page/?vertices=${vertices}&seconds=${seconds}`;
  return { server, address };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : d; };
  const { address } = await serve({ port: Number(opt('--port', '8016')), vertices: Number(opt('--vertices', '20000')),
                                    seconds: Number(opt('--seconds', '2')), native: opt('--native', undefined) });
  console.log(`serving ${address}  (Ctrl-C stops)`);
}
