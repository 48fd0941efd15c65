'use strict'
// The binding's surface: operations (promise and Sync), errors with code
// and reason, policy, revocation of a held file handle.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { Roots, RootSet, McpRootsError, REASONS } = require('mcp-roots')
const { tree } = require('./helpers.js')

function live(t, ...dirs) {
  const roots = new Roots()
  assert.deepEqual(roots.replace(dirs.map((d) => `file://${t}/${d}`)).rejected, [])
  return roots
}

async function refusal(promiseOrFn) {
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn)
  } catch (err) {
    assert.ok(err instanceof McpRootsError)
    return err
  }
  assert.fail('not refused')
}

test('read and write, promise and Sync', async () => {
  const t = tree()
  const roots = live(t, 'a')
  assert.equal(await roots.readFile(`${t}/a/x.txt`, 'utf8'), 'hello')
  assert.deepEqual(roots.readFileSync(`file://${t}/a/sub/y.txt`), Buffer.from('y'))
  await roots.writeFile(`${t}/a/new.txt`, 'né')
  assert.equal(fs.readFileSync(`${t}/a/new.txt`, 'utf8'), 'né')
  roots.writeFileSync(`${t}/a/new.txt`, Buffer.from([0, 255]))
  assert.deepEqual(await roots.readFile(`${t}/a/new.txt`), Buffer.from([0, 255]))
  await assert.rejects(roots.readFile(`${t}/a/new.txt`, 'utf8'), /not valid UTF-8/)
  assert.throws(() => roots.readFileSync(`${t}/a/x.txt`, 'latin1'), TypeError)
})

test('refusals carry code, reason, input and the sentence', async () => {
  const t = tree()
  const roots = live(t, 'a')
  const rows = [
    [`${t}/a/../outside/secret.txt`, 'outside_roots'],
    [`file://${t}/a/%2e%2e/outside/secret.txt`, 'outside_roots'],
    [`${t}/a_evil/x`, 'outside_roots'],
    [`${t}/a/missing.txt`, 'not_found'],
    [`${t}/a/sub`, 'not_a_regular_file'],
    [`${t}/a/x.txt/y`, 'not_a_directory'],
    ['relative/x', 'not_absolute'],
    [`file://host${t}/a/x.txt`, 'invalid_uri'],
  ]
  for (const [input, reason] of rows) {
    for (const err of [await refusal(roots.readFile(input)), await refusal(() => roots.readFileSync(input))]) {
      assert.equal(err.reason, reason, input)
      assert.equal(err.code, `ERR_MCP_ROOTS_${reason.toUpperCase()}`)
      assert.equal(err.input, input)
      assert.ok(err.sentence.startsWith(`Refused (${reason})`), err.sentence)
      assert.ok(REASONS.includes(reason))
    }
  }
  assert.equal(REASONS.length, 17)
  assert.equal((await refusal(new Roots().readFile(`${t}/a/x.txt`))).reason, 'no_roots')
})

test('mutations', async () => {
  const t = tree()
  const roots = live(t, 'a', 'b')
  await roots.mkdir(`${t}/a/d1/d2`, true)
  assert.equal((await refusal(roots.mkdir(`${t}/a/d1`))).reason, 'already_exists')
  assert.equal(await roots.copyFile(`${t}/a/x.txt`, `${t}/a/d1/copy.txt`), 5)
  assert.equal((await refusal(() => roots.copyFileSync(`${t}/a/x.txt`, `${t}/a/d1/copy.txt`))).reason, 'already_exists')
  await roots.rename(`${t}/a/d1/copy.txt`, `${t}/b/moved.txt`)
  assert.equal(fs.readFileSync(`${t}/b/moved.txt`, 'utf8'), 'hello')
  assert.equal((await refusal(roots.rename(`${t}/b/moved.txt`, `${t}/a/x.txt`))).reason, 'already_exists')
  roots.renameSync(`${t}/b/moved.txt`, `${t}/a/x.txt`, true)
  await roots.unlink(`${t}/a/x.txt`)
  assert.ok(!fs.existsSync(`${t}/a/x.txt`))
  roots.rmdirSync(`${t}/a/d1/d2`)
  assert.equal((await refusal(roots.unlink(`${t}/outside/secret.txt`))).reason, 'outside_roots')
  assert.equal((await refusal(roots.rename(`${t}/a/sub/y.txt`, `${t}/outside/y.txt`))).reason, 'outside_roots')
  assert.ok(fs.existsSync(`${t}/outside/secret.txt`))
})

test('readdir, walk, stat, resolve', async () => {
  const t = tree()
  const roots = live(t, 'a')
  const names = (await roots.readdir(`${t}/a`)).map((e) => [e.name, e.type]).sort()
  assert.deepEqual(names, [['sub', 'dir'], ['x.txt', 'file']])
  const walk = await roots.walk(`${t}/a`, 5, 100)
  assert.deepEqual(walk.entries.map((e) => e.rel).sort(), ['sub', 'sub/y.txt', 'x.txt'])
  assert.equal(walk.truncated, false)
  assert.deepEqual(walk.errors, [])
  const cut = roots.walkSync(`${t}/a`, 5, 1)
  assert.ok(cut.truncated && cut.entries.length === 1)
  const st = await roots.stat(`${t}/a/x.txt`)
  assert.equal(st.type, 'file')
  assert.equal(st.size, 5)
  assert.ok(st.mtimeMs > 0)
  assert.equal(roots.statSync(`${t}/a/sub`).type, 'dir')
  assert.deepEqual(await roots.resolve(`${t}/a/sub/./y.txt`), { rel: 'sub/y.txt', uri: `file://${t}/a/sub/y.txt` })
})

test('file handles: flags, positions, and revocation', async () => {
  const t = tree()
  const roots = live(t, 'a', 'b')
  const w = await roots.open(`${t}/a/lines.txt`, 'wx')
  assert.equal(await w.write('one\ntwo\n'), 8)
  await w.close()
  assert.equal((await refusal(roots.open(`${t}/a/lines.txt`, 'wx'))).reason, 'already_exists')
  const rw = roots.openSync(`${t}/a/lines.txt`, 'r+')
  assert.deepEqual(rw.readSync(3), Buffer.from('one'))
  rw.writeSync('ONE', 0)
  assert.equal(String(rw.readSync(null, 0)), 'ONE\ntwo\n')
  assert.equal(rw.whereSync().rel, 'lines.txt')
  rw.closeSync()
  assert.throws(() => rw.readSync(), /closed/)
  assert.throws(() => roots.openSync(`${t}/a/x.txt`, 'rw'), /unsupported open flags/)

  const held = await roots.open(`${t}/a/x.txt`)
  assert.equal(String(await held.read(1)), 'h')
  const report = roots.replace([`file://${t}/b`])
  assert.deepEqual(report.revoked, [{ path: 'x.txt', reason: 'scope_lost' }])
  assert.equal(held.revoked, 'scope_lost')
  const err = await refusal(held.read())
  assert.equal(err.code, 'ERR_MCP_ROOTS_SCOPE_LOST')
  assert.equal((await refusal(() => held.writeSync('x'))).reason, 'scope_lost')
})

test('policy, empty roots and request roots', async () => {
  const t = tree()
  const roots = new Roots({ ceiling: [`${t}/a`], writes: 'refuse', symlinks: 'refuse' })
  const report = roots.replace([t, { uri: `${t}/b`, name: 'b' }])
  assert.deepEqual(report.rejected.map((r) => [r.uri, r.name, r.reason]), [[`${t}/b`, 'b', 'outside_ceiling']])
  assert.equal(report.rejected[0].error.code, 'ERR_MCP_ROOTS_OUTSIDE_CEILING')
  assert.ok(roots.readOnly)
  assert.equal((await refusal(roots.writeFile(`${t}/a/n.txt`, 'x'))).reason, 'read_only')
  fs.symlinkSync('x.txt', `${t}/a/link`)
  assert.equal((await refusal(roots.readFile(`${t}/a/link`))).reason, 'symlink_loop')
  assert.throws(() => new Roots({ writes: 'maybe' }), /writes must be one of/)

  const served = new Roots({ ceiling: [`${t}/a`], emptyRoots: 'ceiling' })
  served.replaceUndeclared()
  assert.equal(served.readTextSync(`${t}/a/x.txt`), 'hello')
  assert.equal(served.forRequest(null).readTextSync(`${t}/a/x.txt`), 'hello')
  const scoped = served.forRequest([`file://${t}/a/sub`])
  assert.equal((await refusal(scoped.readText(`${t}/a/x.txt`))).reason, 'outside_roots')
  const deny = new Roots({ ceiling: [`${t}/a`] })
  deny.replaceUndeclared()
  assert.equal((await refusal(deny.readText(`${t}/a/x.txt`))).reason, 'no_roots')
})

test('a fixed set does not track; rescan revokes a moved root', async () => {
  const t = tree()
  const set = new RootSet([`file://${t}/a`, `${t}/nope`])
  assert.deepEqual(set.uris, [`file://${t}/a`])
  assert.deepEqual(set.rejected.map((r) => r.reason), ['not_found'])
  const f = set.openSync(`${t}/a/x.txt`)
  assert.equal(f.revoked, null)
  f.closeSync()
  const roots = live(t, 'a')
  const held = roots.openSync(`${t}/a/x.txt`)
  fs.renameSync(`${t}/a`, `${t}/moved`)
  assert.deepEqual(roots.rescan().revoked.map((r) => r.reason), ['scope_lost'])
  assert.equal((await refusal(held.read())).reason, 'scope_lost')
  assert.equal((await refusal(roots.readText(`${t}/a/x.txt`))).reason, 'root_gone')
})

test('promise methods run off the event loop, Sync ones on it', async () => {
  const t = tree()
  const roots = live(t, 'a')
  const data = Buffer.alloc(16 << 20, 7)
  let ticks = 0
  const timer = setInterval(() => { ticks++ }, 1)
  try {
    await new Promise((r) => setTimeout(r, 3))
    const start = ticks
    roots.writeFileSync(`${t}/a/sync.bin`, data)
    assert.equal(ticks, start, 'a Sync call let timers run')
    const during = await roots.writeFile(`${t}/a/big.bin`, data).then(() => ticks - start)
    assert.ok(during >= 1, `the event loop did not turn during the promise call (${during})`)
  } finally {
    clearInterval(timer)
  }
  assert.equal((await roots.stat(`${t}/a/big.bin`)).size, 16 << 20)
})

test('readFileSync: every size, and each Buffer its own', () => {
  const t = tree()
  const set = new RootSet([`${t}/a`])
  const roots = live(t, 'a')
  for (const scope of [set, roots]) {
    for (const size of [0, 1, 1024, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 300 * 1024]) {
      const data = Buffer.alloc(size, size % 251)
      for (let i = 0; i < size; i += 997) data[i] = i % 256
      fs.writeFileSync(`${t}/a/s.bin`, data)
      const first = scope.readFileSync(`${t}/a/s.bin`)
      assert.ok(Buffer.isBuffer(first))
      assert.ok(first.equals(data), `size ${size}`)
      fs.writeFileSync(`${t}/a/s.bin`, Buffer.alloc(size, 7))
      const second = scope.readBytesSync(`${t}/a/s.bin`)
      assert.ok(first.equals(data), `a later read changed an earlier Buffer (size ${size})`)
      assert.ok(second.equals(Buffer.alloc(size, 7)))
    }
  }
  assert.throws(() => set.readFileSync(`${t}/outside/secret.txt`), (err) => err instanceof McpRootsError && err.code === 'ERR_MCP_ROOTS_OUTSIDE_ROOTS')
})
