'use strict'
// Grants through the binding: the area, a question judged before it is
// asked, a file and a directory granted for the session and ended
// (semantics 15 of the Rust crate).
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { Roots, McpRootsError } = require('mcp-roots')
const { tree } = require('./helpers.js')

function reasonOf(fn) {
  try {
    fn()
  } catch (err) {
    assert.ok(err instanceof McpRootsError, String(err))
    return err.reason
  }
  assert.fail('not refused')
}

test('nothing is served until granted; a file grant reaches its one file', () => {
  const t = tree()
  const roots = new Roots({ askWithin: [t] })
  assert.deepEqual(roots.replace([`${t}/a`]).rejected.map((r) => r.reason), ['outside_ceiling'])
  assert.equal(reasonOf(() => roots.readFileSync(`${t}/a/x.txt`)), 'no_roots')
  const about = roots.mayAsk(`${t}/a/x.txt`, 'change')
  assert.deepEqual([about.path, about.kind, about.access, about.exists], [`${t}/a/x.txt`, 'file', 'change', true])
  assert.ok(about.equals(roots.mayAsk(`${t}/a/sub/../x.txt`, 'change')))
  const grant = roots.grant(about)
  assert.deepEqual(roots.grants.map((g) => g.id), [grant.id])
  assert.deepEqual(roots.roots.map((r) => r.grant), ['file'])
  assert.equal(roots.readFileSync(`${t}/a/x.txt`, 'utf8'), 'hello')
  roots.writeFileSync(`${t}/a/x.txt`, 'changed')
  assert.equal(fs.readFileSync(`${t}/a/x.txt`, 'utf8'), 'changed')
  assert.equal(reasonOf(() => roots.readFileSync(`${t}/a/sub/y.txt`)), 'outside_roots')
  assert.equal(reasonOf(() => roots.unlinkSync(`${t}/a/x.txt`)), 'read_only')
  roots.endGrant(grant)
  assert.deepEqual(roots.grants, [])
  assert.equal(reasonOf(() => roots.readFileSync(`${t}/a/x.txt`)), 'no_roots')
})

test('the end of a directory grant revokes its files', () => {
  const t = tree()
  const roots = new Roots({ askWithin: [t] })
  const grant = roots.grant(roots.mayAsk(`${t}/a`))
  assert.equal(grant.about.kind, 'directory')
  const held = roots.openSync(`${t}/a/x.txt`)
  assert.equal(roots.endGrant(grant).revoked.length, 1)
  assert.equal(reasonOf(() => held.readSync()), 'scope_lost')
})

test('questions refused before they are asked', () => {
  const t = tree()
  const roots = new Roots({ askWithin: [t], hide: ['sub/'], readOnlyPatterns: ['x.txt'] })
  assert.equal(reasonOf(() => roots.mayAsk(`${t}/a/sub/y.txt`)), 'hidden')
  assert.equal(reasonOf(() => roots.mayAsk(`${t}/a/sub/none.txt`)), 'hidden')
  assert.equal(reasonOf(() => roots.mayAsk(`${t}/../elsewhere`)), 'outside_roots')
  assert.equal(reasonOf(() => roots.mayAsk(`${t}/a/x.txt`, 'change')), 'read_only')
  assert.throws(() => roots.mayAsk(`${t}/a/x.txt`, 'write'), /access must be/)
  assert.throws(() => roots.mayAsk(42), { code: 'ERR_INVALID_ARG_TYPE' })
  assert.equal(roots.mayAsk(new URL(`file://${t}/a/x.txt`)).kind, 'file')
  assert.equal(reasonOf(() => new Roots().mayAsk(`${t}/a/x.txt`)), 'outside_roots')
})
