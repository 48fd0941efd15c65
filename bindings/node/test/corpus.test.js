'use strict'
// The shared escape corpus through the binding: each row gets exactly the
// Rust crate's outcome (escape_corpus_outcomes.json), denied rows change
// nothing, allowed rows touch the expected file.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { RootSet, Roots, McpRootsError } = require('mcp-roots')
const { corpus } = require('./helpers.js')

const { cases, outcomes } = corpus()
const MARKER = 'created by mcp-roots tests'

function apply(t, setup) {
  for (const op of setup) {
    if (op.mkdir) { fs.mkdirSync(path.join(t, op.mkdir), { recursive: true }); continue }
    const rel = op.file ?? op.symlink ?? op.hardlink
    const p = path.join(t, rel)
    fs.mkdirSync(path.dirname(p), { recursive: true })
    if (op.file) fs.writeFileSync(p, op.content ?? op.file)
    else if (op.symlink) fs.symlinkSync(op.target.replaceAll('{T}', t), p)
    else fs.linkSync(path.join(t, op.target), p)
  }
}

function snapshot(t) {
  const seen = {}
  const walk = (d) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name)
      const st = fs.lstatSync(p, { bigint: true })
      seen[path.relative(t, p)] = `${st.mode}:${st.size}:${st.mtimeNs}:${st.ino}`
      if (st.isDirectory()) walk(p)
    }
  }
  walk(t)
  return seen
}

function run(set, op, target) {
  if (op === 'read') {
    const f = set.openSync(target)
    try { return f.readSync() } finally { f.closeSync() }
  }
  if (op === 'write_new') {
    const f = set.openSync(target, 'wx')
    try { f.writeSync(MARKER) } finally { f.closeSync() }
    return null
  }
  if (op === 'list') return set.readdirSync(target).map((e) => e.name).sort()
  throw new Error(op)
}

test('the corpus covers every operation and both answers', () => {
  assert.deepEqual(new Set(cases.map((c) => c.op)), new Set(['read', 'write_new', 'list']))
  assert.deepEqual(Object.keys(outcomes).sort(), cases.map((c) => c.id).sort())
})

for (const c of cases) {
  test(`corpus ${c.id}`, () => {
    const t = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mr')))
    try {
      apply(t, c.setup)
      const set = new RootSet(c.roots.map((r) => r.replaceAll('{T}', t)))
      const before = snapshot(t)
      let outcome, touched
      try {
        touched = run(set, c.op, c.input.replaceAll('{T}', t))
        outcome = 'allow'
      } catch (err) {
        assert.ok(err instanceof McpRootsError, `untyped error: ${err}`)
        assert.equal(err.code, `ERR_MCP_ROOTS_${err.reason.toUpperCase()}`)
        outcome = err.reason
      }
      assert.equal(outcome, outcomes[c.id], c.why)
      if (outcome !== 'allow') {
        assert.deepEqual(snapshot(t), before, 'a refusal changed the tree')
        return
      }
      const expected = path.join(t, c.resolved)
      if (c.op === 'read') assert.deepEqual(touched, fs.readFileSync(expected))
      else if (c.op === 'write_new') assert.equal(fs.readFileSync(expected, 'utf8'), MARKER)
      else assert.deepEqual(touched, fs.readdirSync(expected).sort())
    } finally {
      fs.rmSync(t, { recursive: true, force: true })
    }
  })
}

test('live roots answer the read rows as the fixed set, asynchronously', async () => {
  for (const c of cases.filter((c) => c.op === 'read')) {
    const t = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mr')))
    try {
      apply(t, c.setup)
      const roots = new Roots()
      roots.replace(c.roots.map((r) => r.replaceAll('{T}', t)))
      let outcome
      try {
        await roots.readFile(c.input.replaceAll('{T}', t))
        outcome = 'allow'
      } catch (err) {
        outcome = err.reason
      }
      assert.equal(outcome, outcomes[c.id], c.id)
    } finally {
      fs.rmSync(t, { recursive: true, force: true })
    }
  }
})
