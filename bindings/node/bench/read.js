'use strict'
// Node: roots.readFileSync through the binding against fs.readFileSync, and
// against a validatePath-style check (the official filesystem server's
// approach: resolve, prefix test, realpath, prefix test again, read by
// path); the promise methods against fs.promises. One run; prints a table.
//
//   node bindings/node/bench/read.js [iterations] [rounds] [depth]
//
// `depth` is the number of components below the root (default 2:
// `notes/sub/todo.md` beneath the root `notes`): without openat2 the
// library opens once per component.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Roots } = require('mcp-roots')

const N = Number(process.argv[2] ?? 20000)
const ROUNDS = Number(process.argv[3] ?? 5)
const DEPTH = Number(process.argv[4] ?? 2)

function within(allowed, p) {
  return allowed.some((d) => p === d || p.startsWith(d + path.sep))
}

function validatePath(allowed, requested) {
  const absolute = path.resolve(requested)
  if (!within(allowed, path.normalize(absolute))) throw new Error('access denied')
  const real = fs.realpathSync(absolute)
  if (!within(allowed, path.normalize(real))) throw new Error('access denied: symlink target outside')
  return real
}

// CPU time (user + system, every thread of the process) per call, in µs:
// on a shared machine wall time mostly measures the neighbours.
function cpu(start) {
  const d = process.cpuUsage(start)
  return d.user + d.system
}

function perCall(f) {
  f()
  const start = process.cpuUsage()
  for (let i = 0; i < N; i++) f()
  return cpu(start) / N
}

async function perCallAsync(f, n) {
  await f()
  const start = process.cpuUsage()
  for (let i = 0; i < n; i++) await f()
  return cpu(start) / n
}

async function main() {
  const t = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mr')))
  const dir = [`${t}/notes`, ...Array.from({ length: DEPTH - 1 }, (_, i) => (i === 0 ? 'sub' : `d${i}`))].join('/')
  fs.mkdirSync(dir, { recursive: true })
  const p = `${dir}/todo.md`
  fs.writeFileSync(p, 'x'.repeat(1024))
  const roots = new Roots()
  roots.replace([`file://${t}/notes`])
  const allowed = [`${t}/notes`]
  const sync = {
    'fs.readFileSync(p)': () => fs.readFileSync(p),
    "fs.readFileSync(p, 'utf8')": () => fs.readFileSync(p, 'utf8'),
    'validatePath + fs.readFileSync': () => fs.readFileSync(validatePath(allowed, p), 'utf8'),
    'roots.readFileSync(p)': () => roots.readFileSync(p),
    "roots.readFileSync(p, 'utf8')": () => roots.readFileSync(p, 'utf8'),
  }
  const promised = {
    "await fs.promises.readFile(p, 'utf8')": () => fs.promises.readFile(p, 'utf8'),
    'await validatePath + fs.promises.readFile': async () => fs.promises.readFile(validatePath(allowed, p), 'utf8'),
    "await roots.readFile(p, 'utf8')": () => roots.readFile(p, 'utf8'),
  }
  // Rounds interleave the rows, and each row keeps its fastest round: the
  // machine is shared, and a slow moment should not land on one row only.
  const rows = {}
  const keep = (name, us) => { rows[name] = Math.min(rows[name] ?? Infinity, us) }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, f] of Object.entries(sync)) keep(name, perCall(f))
    for (const [name, f] of Object.entries(promised)) keep(name, await perCallAsync(f, Math.floor(N / 10)))
  }
  const base = rows['fs.readFileSync(p)']
  const naive = rows['validatePath + fs.readFileSync']
  console.log(`depth ${DEPTH} below the root: ${p.slice(t.length + '/notes/'.length)}`)
  console.log(`${'call (1 KiB file)'.padEnd(44)} ${'CPU µs'.padStart(8)} ${'× fs'.padStart(6)} ${'× naive'.padStart(8)}`)
  for (const [name, us] of Object.entries(rows)) {
    console.log(`${name.padEnd(44)} ${us.toFixed(2).padStart(8)} ${(us / base).toFixed(2).padStart(6)} ${(us / naive).toFixed(2).padStart(8)}`)
  }
  fs.rmSync(t, { recursive: true, force: true })
}
main()
