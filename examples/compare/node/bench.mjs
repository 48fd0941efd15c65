// The official TypeScript filesystem server's check (validatePath from
// @modelcontextprotocol/server-filesystem, as its tools call it) followed by
// an open, against a plain fs.openSync, on the tree that examples/compare
// built. Process CPU time (process.cpuUsage: every thread, libuv's pool
// included) over alternating batches; prints `X key v1 v2 ...` lines, one
// value per round, like the Rust children.
//
//   node bench.mjs <package dir> <tree top> <rounds> <batch ms>

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkgDir, top, roundsArg, batchArg] = process.argv.slice(2);
const dist = path.join(pkgDir, 'node_modules/@modelcontextprotocol/server-filesystem/dist');
const lib = await import(pathToFileURL(path.join(dist, 'lib.js')).href);
const { normalizePath } = await import(pathToFileURL(path.join(dist, 'path-utils.js')).href);
const rounds = Number(roundsArg);
const batchMs = Number(batchArg);

const ROOTS = 10000;
const root = (i) => path.join(top, 'roots', `r${String(i).padStart(5, '0')}`);
let target = root(ROOTS - 1);
for (let d = 1; d <= 10; d++) target = path.join(target, `d${d}`);
target = path.join(target, 'f.txt');

const cpuNs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};
const wallNs = () => Number(process.hrtime.bigint());

// Each variant runs n operations and returns CPU ns per operation.
const plain = async (n) => {
  const c0 = cpuNs();
  for (let i = 0; i < n; i++) fs.closeSync(fs.openSync(target, 'r'));
  return (cpuNs() - c0) / n;
};
const checked = async (n) => {
  const c0 = cpuNs();
  for (let i = 0; i < n; i++) {
    const valid = await lib.validatePath(target);
    fs.closeSync(fs.openSync(valid, 'r'));
  }
  return (cpuNs() - c0) / n;
};

// Sizes a batch to about batchMs of wall time.
async function size(run) {
  let n = 1;
  for (;;) {
    const w0 = wallNs();
    await run(n);
    const ms = (wallNs() - w0) / 1e6;
    if (ms >= batchMs / 8 || n >= 1 << 20) return Math.max(1, Math.round((batchMs * n) / ms));
    n *= 4;
  }
}

const emit = (key, values) => console.log(`X ${key} ${values.map((v) => v.toFixed(6)).join(' ')}`);

for (const count of [1, 100, ROOTS]) {
  const dirs = [];
  for (let i = ROOTS - count; i < ROOTS; i++) dirs.push(normalizePath(fs.realpathSync(root(i))));
  lib.setAllowedDirectories(dirs);
  // The check must pass on the target, as it does for the library.
  await lib.validatePath(target);
  const variants = [plain, checked];
  const sizes = [];
  for (const v of variants) sizes.push(await size(v));
  const samples = variants.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (r + k) % variants.length;
      samples[i].push(await variants[i](sizes[i]));
    }
  }
  const ratios = samples[1].map((c, r) => c / samples[0][r]);
  emit(`node.check_vs_open_${count}`, ratios);
  if (count === 1) emit('node.open_ns', samples[0]);
}
