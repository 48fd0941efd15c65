'use strict'
// Moves on disk: seen within a bounded wait while `roots.watch()` runs, and
// only at `rescan()` without it; `close()` from inside or outside the
// callback; the process exits with a watcher open.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { spawnSync } = require('node:child_process')
const { Roots, Watcher, McpRootsError } = require('mcp-roots')
const { tree } = require('./helpers.js')

// Generous: the watcher acts within about 50 ms plus a rescan; a loaded
// machine can be slower, but a move that is never seen fails the test.
const DEADLINE_MS = 10000

async function waitFor(condition, what) {
  const end = Date.now() + DEADLINE_MS
  while (!condition()) {
    if (Date.now() > end) assert.fail(`not within ${DEADLINE_MS} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function live(t, ...dirs) {
  const roots = new Roots()
  assert.deepEqual(roots.replace(dirs.map((d) => `file://${t}/${d}`)).rejected, [])
  return roots
}

async function reason(promise) {
  try {
    await promise
  } catch (err) {
    assert.ok(err instanceof McpRootsError, String(err))
    return err.reason
  }
  assert.fail('not refused')
}

test('a folder moved out while watching revokes the held file', async () => {
  const t = tree()
  const roots = live(t, 'a')
  const events = []
  const watcher = roots.watch((e) => events.push(e))
  assert.ok(watcher instanceof Watcher)
  try {
    const held = await roots.open(`${t}/a/sub/y.txt`, 'r+')
    assert.equal((await held.read()).toString(), 'y')
    fs.renameSync(`${t}/a/sub`, `${t}/outside/sub`)
    await waitFor(() => held.revoked === 'scope_lost', 'the held file revoked')
    assert.equal(await reason(held.read(1, 0)), 'scope_lost')
    assert.equal(await reason(held.write('changed', 0)), 'scope_lost')
    assert.throws(() => held.writeSync('changed', 0), (err) => err.reason === 'scope_lost')
    await waitFor(() => events.some((e) => e.kind === 'handle_revoked'), 'the event')
    const revoked = events.find((e) => e.kind === 'handle_revoked')
    assert.equal(revoked.path, 'sub/y.txt')
    assert.equal(revoked.reason, 'scope_lost')
  } finally {
    watcher.close()
  }
  assert.ok(watcher.closed)
  assert.equal(fs.readFileSync(`${t}/outside/sub/y.txt`, 'utf8'), 'y')
})

test('a root renamed while watching revokes its files', async () => {
  const t = tree()
  const roots = live(t, 'a', 'b')
  const events = []
  const watcher = roots.watch((e) => events.push(e))
  try {
    const held = roots.openSync(`${t}/a/x.txt`)
    fs.renameSync(`${t}/a`, `${t}/moved`)
    await waitFor(() => held.revoked !== null, 'the held file revoked')
    assert.equal(await reason(held.read()), 'scope_lost')
    assert.equal(await reason(roots.readFile(`${t}/a/x.txt`)), 'root_gone')
    await waitFor(() => events.some((e) => e.kind === 'root_gone'), 'the root_gone event')
    assert.deepEqual(events.filter((e) => e.kind === 'root_gone').map((e) => e.uri), [`file://${t}/a`])
    fs.mkdirSync(`${t}/b/c`)
    assert.deepEqual(roots.readdirSync(`${t}/b`).map((e) => e.name), ['c'])
  } finally {
    watcher.close()
  }
  watcher.close() // twice does nothing
})

test('without a watcher a move is seen at rescan()', async () => {
  const t = tree()
  const roots = live(t, 'a')
  const held = roots.openSync(`${t}/a/sub/y.txt`)
  fs.renameSync(`${t}/a/sub`, `${t}/outside/sub`)
  await new Promise((resolve) => setTimeout(resolve, 200)) // what a watcher would need
  assert.equal(held.revoked, null) // the promise: nothing is seen before rescan()
  const report = roots.rescan()
  assert.deepEqual(report.revoked.map((r) => [r.path, r.reason]), [['sub/y.txt', 'scope_lost']])
  assert.equal(await reason(held.read()), 'scope_lost')
})

test('a watcher without a callback still revokes', async () => {
  const t = tree()
  const roots = live(t, 'a')
  const watcher = roots.watch()
  try {
    const held = roots.openSync(`${t}/a/x.txt`)
    fs.mkdirSync(`${t}/outside/d`)
    fs.renameSync(`${t}/a/x.txt`, `${t}/outside/d/x.txt`)
    await waitFor(() => held.revoked !== null, 'the held file revoked')
  } finally {
    watcher.close()
  }
})

test('close() from inside the callback', async () => {
  const t = tree()
  const roots = live(t, 'a')
  let calls = 0
  const watcher = roots.watch(() => {
    calls++
    watcher.close()
  })
  const first = roots.openSync(`${t}/a/sub/y.txt`)
  fs.renameSync(`${t}/a/sub`, `${t}/outside/sub`)
  await waitFor(() => calls > 0, 'the callback')
  assert.ok(watcher.closed)
  await waitFor(() => first.revoked !== null, 'the first file revoked')
  // Stopped: a second move is no longer seen by itself, and no callback runs.
  const second = roots.openSync(`${t}/a/x.txt`)
  fs.renameSync(`${t}/a/x.txt`, `${t}/outside/x.txt`)
  await new Promise((resolve) => setTimeout(resolve, 300))
  assert.equal(second.revoked, null)
  assert.equal(calls, 1)
})

test('watch refuses a callback that is not a function', () => {
  const roots = live(tree(), 'a')
  for (const bad of [1, 'print', {}, true]) {
    assert.throws(() => roots.watch(bad), (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE')
  }
})

const CHILD = `
const { Roots } = require('mcp-roots')
const roots = new Roots()
roots.replace(['file://' + process.argv[1] + '/a'])
globalThis.kept = roots.watch((e) => console.log(e.kind))
globalThis.held = roots.openSync(process.argv[1] + '/a/x.txt')
console.log('started')
`

test('the process exits with a watcher open', () => {
  const t = tree()
  const out = spawnSync(process.execPath, ['-e', CHILD, t], { encoding: 'utf8', timeout: 30000, cwd: __dirname })
  assert.equal(out.error, undefined, 'the process did not exit by itself')
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout.trim(), 'started')
})

const CLOSE_OUTSIDE = `
const fs = require('node:fs')
const { Roots } = require('mcp-roots')
const t = process.argv[1]
const roots = new Roots()
roots.replace(['file://' + t + '/a'])
let seen = 0
const watcher = roots.watch(() => { seen++ })
const held = roots.openSync(t + '/a/sub/y.txt')
fs.renameSync(t + '/a/sub', t + '/outside/sub')
// Busy on the event loop while the watcher revokes the handle and queues
// its event (bounded), then closed from outside the callback.
const end = Date.now() + 10000
while (held.revoked === null && Date.now() < end) {}
const queued = Date.now() + 50
while (Date.now() < queued) {}
watcher.close()
const after = seen
setTimeout(() => {
  if (seen !== after) throw new Error('a callback ran after close()')
  console.log('done', held.revoked)
}, 200)
`

test('close() from outside the callback while an event is queued', () => {
  const t = tree()
  const out = spawnSync(process.execPath, ['-e', CLOSE_OUTSIDE, t], { encoding: 'utf8', timeout: 30000, cwd: __dirname })
  assert.equal(out.error, undefined, 'the process hung')
  assert.equal(out.status, 0, out.stderr)
  assert.equal(out.stdout.trim(), 'done scope_lost')
})
