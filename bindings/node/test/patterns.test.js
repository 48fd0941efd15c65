'use strict'
// Hidden and read-only patterns through the binding: refusals with their
// code and the deciding pattern, listings that omit what is hidden, the
// paths around a pattern (`..`, symlinks, renames) refused too, a bad
// pattern named; and the process confinement, in a child process.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { execFileSync } = require('node:child_process')
const { Roots, RootSet, McpRootsError, PatternError } = require('mcp-roots')
const { tree } = require('./helpers.js')

const HIDE = ['.env', '*.pem', '/secrets/']
const PROTECT = ['*.lock', '/vendor/']

function project() {
  const a = `${tree()}/a`
  for (const d of ['secrets', 'vendor', 'sub/deep']) fs.mkdirSync(`${a}/${d}`, { recursive: true })
  const files = { '.env': 'TOKEN=1', 'key.pem': 'pem', 'sub/deep/x.pem': 'pem', 'secrets/s.txt': 's', 'Cargo.lock': 'lock', 'vendor/v.txt': 'v' }
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(`${a}/${f}`, text)
  fs.symlinkSync('.env', `${a}/env-link`)
  fs.symlinkSync('secrets', `${a}/secrets-link`)
  fs.symlinkSync('Cargo.lock', `${a}/lock-link`)
  return a
}

function both(a) {
  const roots = new Roots({ hide: HIDE, readOnlyPatterns: PROTECT })
  assert.deepEqual(roots.replace([`file://${a}`]).rejected, [])
  return [roots, new RootSet([a], { hide: HIDE, readOnlyPatterns: PROTECT })]
}

async function refusal(fn, code) {
  try {
    await fn()
  } catch (err) {
    assert.ok(err instanceof McpRootsError, String(err))
    if (code) assert.equal(err.code, code, err.message)
    return err
  }
  assert.fail('not refused')
}

const HIDDEN = [
  ['.env', '.env'],
  ['key.pem', '*.pem'],
  ['sub/deep/x.pem', '*.pem'],
  ['secrets/s.txt', '/secrets/'],
  ['secrets', '/secrets/'],
  ['sub/../.env', '.env'],
  ['sub/deep/../../secrets/s.txt', '/secrets/'],
  ['env-link', '.env'],
  ['secrets-link/s.txt', '/secrets/'],
]

test('what a pattern hides is refused as hidden, with its pattern', async () => {
  const a = project()
  for (const scope of both(a)) {
    for (const [rel, pattern] of HIDDEN) {
      for (const call of [() => scope.readFile(`${a}/${rel}`), () => scope.readFileSync(`${a}/${rel}`), () => scope.stat(`${a}/${rel}`)]) {
        const err = await refusal(call, 'ERR_MCP_ROOTS_HIDDEN')
        assert.equal(err.reason, 'hidden', rel)
        assert.equal(err.pattern, pattern, rel)
        assert.ok(err.sentence.startsWith('Refused (hidden)'), err.sentence)
      }
    }
  }
})

test('a hidden name cannot be created, moved in or out, or copied', async () => {
  const a = project()
  for (const scope of both(a)) {
    await refusal(() => scope.writeFile(`${a}/sub/new.pem`, 'x'), 'ERR_MCP_ROOTS_HIDDEN')
    await refusal(() => scope.rename(`${a}/sub/deep/x.pem`, `${a}/sub/x.txt`), 'ERR_MCP_ROOTS_HIDDEN')
    await refusal(() => scope.renameSync(`${a}/sub`, `${a}/secrets/sub`), 'ERR_MCP_ROOTS_HIDDEN')
    await refusal(() => scope.copyFile(`${a}/.env`, `${a}/sub/env.txt`), 'ERR_MCP_ROOTS_HIDDEN')
  }
  assert.ok(!fs.existsSync(`${a}/sub/new.pem`) && !fs.existsSync(`${a}/sub/env.txt`))
  assert.ok(fs.existsSync(`${a}/sub/deep/x.pem`) && fs.statSync(`${a}/sub`).isDirectory())
})

test('listings omit what is hidden', async () => {
  const a = project()
  for (const scope of both(a)) {
    const names = new Set((await scope.readdir(a)).map((e) => e.name))
    for (const gone of ['.env', 'key.pem', 'secrets']) assert.ok(!names.has(gone), gone)
    for (const kept of ['Cargo.lock', 'vendor', 'sub', 'env-link']) assert.ok(names.has(kept), kept)
    const walked = scope.walkSync(a, 10, 1000).entries.map((e) => e.rel)
    assert.ok(walked.includes('sub/deep') && walked.includes('vendor/v.txt'))
    assert.ok(!walked.some((r) => r.endsWith('.pem') || r.startsWith('secrets/') || r === '.env'), walked.join(' '))
  }
})

test('read-only patterns refuse every change, not reads or a copy out', async () => {
  const a = project()
  for (const [i, scope] of both(a).entries()) {
    assert.equal(scope.readFileSync(`${a}/Cargo.lock`, 'utf8'), 'lock')
    assert.equal(scope.readFileSync(`${a}/lock-link`, 'utf8'), 'lock')
    for (const change of [
      () => scope.writeFile(`${a}/Cargo.lock`, 'x'),
      () => scope.writeFileSync(`${a}/sub/../Cargo.lock`, 'x'),
      () => scope.writeFile(`${a}/vendor/new.txt`, 'x'),
      () => scope.unlink(`${a}/vendor/v.txt`),
      () => scope.rename(`${a}/vendor/v.txt`, `${a}/v.txt`),
      () => scope.copyFile(`${a}/sub/../Cargo.lock`, `${a}/vendor/c`),
      () => scope.open(`${a}/Cargo.lock`, 'a'),
    ]) {
      const err = await refusal(change, 'ERR_MCP_ROOTS_READ_ONLY')
      assert.ok(PROTECT.includes(err.pattern), err.pattern)
    }
    // Through a symlink a change is refused too (the library does not write through one).
    for (const flags of ['r+', 'a', 'w']) await refusal(() => scope.open(`${a}/lock-link`, flags))
    assert.equal(await scope.copyFile(`${a}/vendor/v.txt`, `${a}/sub/v${i}.txt`), 1)
  }
  assert.equal(fs.readFileSync(`${a}/Cargo.lock`, 'utf8'), 'lock')
  assert.deepEqual(fs.readdirSync(`${a}/vendor`), ['v.txt'])
})

test('roots list what they hide and protect', () => {
  const a = project()
  for (const scope of both(a)) {
    const [info] = scope.roots
    assert.deepEqual(info.hides, HIDE)
    assert.deepEqual(info.protects, PROTECT)
    assert.equal(info.readOnly, false)
  }
  const t = a.slice(0, -2)
  const plain = new RootSet([`${t}/b`])
  assert.deepEqual([plain.roots[0].hides, plain.roots[0].protects], [[], []])
  const ro = new Roots({ writes: 'refuse', hide: ['.env'] }).forRequest([`${t}/b`])
  assert.equal(ro.roots[0].readOnly, true)
  assert.deepEqual(ro.roots[0].hides, ['.env'])
})

test('a bad pattern throws a PatternError naming it', () => {
  const t = tree()
  for (const bad of ['[z-a]', '', '# comment', 'a/../b', './x', '!']) {
    for (const make of [
      () => new Roots({ hide: ['*.pem', bad] }),
      () => new Roots({ readOnlyPatterns: [bad] }),
      () => new RootSet([t], { hide: [bad] }),
      () => new RootSet([t], { readOnlyPatterns: ['ok', bad] }),
    ]) {
      assert.throws(make, (err) => {
        assert.ok(err instanceof PatternError && err instanceof TypeError, String(err))
        assert.equal(err.code, 'ERR_MCP_ROOTS_INVALID_PATTERN')
        assert.equal(err.pattern, bad)
        assert.ok(err.message.includes(JSON.stringify(bad)), err.message)
        assert.ok(err.detail)
        return true
      })
    }
  }
  assert.ok(new Roots({ hide: ['ok'] }) instanceof Roots)
})

test('errors without a pattern have null', async () => {
  const t = tree()
  const set = new RootSet([`${t}/a`], { hide: ['.env'] })
  const err = await refusal(() => set.readFileSync(`${t}/outside/secret.txt`), 'ERR_MCP_ROOTS_OUTSIDE_ROOTS')
  assert.equal(err.pattern, null)
})

function child(code) {
  const out = execFileSync(process.execPath, ['-e', code], { encoding: 'utf8', cwd: __dirname })
  return JSON.parse(out.trim().split('\n').pop())
}

test('confine: required refuses under Node (threads), best effort confines the main thread', () => {
  const t = tree()
  const got = child(`
    const fs = require('node:fs')
    const { Roots, confine, ConfinementError } = require('mcp-roots')
    const out = {}
    try { confine(new Roots()) } catch (e) { out.none = [e instanceof ConfinementError, e.code] }
    const roots = new Roots({ ceiling: [${JSON.stringify(`${t}/a`)}], readOnlyCeiling: [${JSON.stringify(`${t}/b`)}] })
    try { confine(roots, { required: true }) } catch (e) { out.required = [e.code, e.kind, e.message] }
    const report = confine(roots)
    out.enforcement = report.enforcement
    out.threads = report.threads
    out.dirs = report.directories.map((d) => [d.path, d.writable])
    out.text = report.text
    const attempt = (fn) => { try { fn(); return 'allowed' } catch (e) { return e.code } }
    out.outside = attempt(() => fs.readFileSync(${JSON.stringify(`${t}/outside/secret.txt`)}))
    out.ro = attempt(() => fs.writeFileSync(${JSON.stringify(`${t}/b/new`)}, 'x'))
    out.inside = fs.readFileSync(${JSON.stringify(`${t}/a/x.txt`)}, 'utf8')
    // libuv's pool starts with the first promise call: after confine, so its threads are confined.
    fs.promises.readFile(${JSON.stringify(`${t}/outside/secret.txt`)}).then(
      () => { out.pool = 'allowed' }, (e) => { out.pool = e.code }).finally(() => console.log(JSON.stringify(out)))
  `)
  assert.deepEqual(got.none, [true, 'ERR_MCP_ROOTS_CONFINEMENT_NO_CEILING'])
  assert.equal(got.required[0], 'ERR_MCP_ROOTS_CONFINEMENT_THREADS', got.required[2])
  assert.ok(got.threads > 1, `threads ${got.threads}`)
  assert.deepEqual(got.dirs.sort(), [[`${t}/a`, true], [`${t}/b`, false]])
  assert.equal(got.inside, 'hello')
  if (got.enforcement === 'unsupported') return test.skip?.(`no Landlock: ${got.text}`)
  assert.equal(got.enforcement, 'partial', got.text)
  assert.deepEqual([got.outside, got.ro, got.pool], ['EACCES', 'EACCES', 'EACCES'], got.text)
})

test('a held handle moved into a hidden part is revoked', async () => {
  const a = project()
  const roots = new Roots({ hide: HIDE })
  roots.replace([a])
  const held = await roots.open(`${a}/vendor/v.txt`)
  assert.deepEqual(held.readSync(1), Buffer.from('v'))
  fs.renameSync(`${a}/vendor/v.txt`, `${a}/secrets/v.txt`)
  const report = roots.rescan()
  assert.deepEqual(report.revoked.map((r) => [r.path, r.reason]), [['vendor/v.txt', 'hidden']])
  assert.equal(held.revoked, 'hidden')
  await refusal(() => held.read(), 'ERR_MCP_ROOTS_HIDDEN')
})
