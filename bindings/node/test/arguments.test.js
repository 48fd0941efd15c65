'use strict'
// Arguments in Node's terms: wrong types are a TypeError, limits that
// cannot wrap a RangeError, both thrown by the Sync methods and rejected by
// the promise methods; URL objects; lone surrogates are the library's
// refusal; no external buffers.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { pathToFileURL } = require('node:url')
const { Roots, RootSet, McpRootsError } = require('mcp-roots')
const { tree } = require('./helpers.js')

function scopes(t) {
  const roots = new Roots()
  roots.replace([`file://${t}/a`])
  return [roots, new RootSet([`file://${t}/a`])]
}

const OK = '/nowhere/x'
// Each operation with `p` in each path slot: [name, promise call, Sync call].
function operations(s, p) {
  return [
    ['open', () => s.open(p), () => s.openSync(p)],
    ['readFile', () => s.readFile(p), () => s.readFileSync(p)],
    ['readFile utf8', () => s.readFile(p, 'utf8'), () => s.readFileSync(p, 'utf8')],
    ['readBytes', () => s.readBytes(p), () => s.readBytesSync(p)],
    ['readText', () => s.readText(p), () => s.readTextSync(p)],
    ['writeFile', () => s.writeFile(p, 'x'), () => s.writeFileSync(p, 'x')],
    ['readdir', () => s.readdir(p), () => s.readdirSync(p)],
    ['walk', () => s.walk(p, 1, 10), () => s.walkSync(p, 1, 10)],
    ['stat', () => s.stat(p), () => s.statSync(p)],
    ['mkdir', () => s.mkdir(p), () => s.mkdirSync(p)],
    ['unlink', () => s.unlink(p), () => s.unlinkSync(p)],
    ['rmdir', () => s.rmdir(p), () => s.rmdirSync(p)],
    ['rename from', () => s.rename(p, OK), () => s.renameSync(p, OK)],
    ['rename to', () => s.rename(OK, p), () => s.renameSync(OK, p)],
    ['copyFile from', () => s.copyFile(p, OK), () => s.copyFileSync(p, OK)],
    ['copyFile to', () => s.copyFile(OK, p), () => s.copyFileSync(OK, p)],
    ['resolve', () => s.resolve(p), () => s.resolveSync(p)],
  ]
}

/** `promised()` returns a promise that rejects (never throws); `sync()` throws. */
async function bothRefuse(promised, sync, check, what) {
  let out
  assert.doesNotThrow(() => { out = promised() }, `${what}: the promise method threw`)
  assert.ok(out instanceof Promise, what)
  await assert.rejects(out, check, what)
  assert.throws(sync, check, what)
}

const BAD_TYPES = [undefined, null, 3, 0n, true, Buffer.from('/tmp/x'), new Uint8Array(2), {}, { path: '/tmp' }, ['/tmp'], () => '/tmp', Symbol('p')]

test('a path of another type is a TypeError in Node terms, rejected by the promise methods', async () => {
  const t = tree()
  for (const s of scopes(t)) {
    for (const bad of BAD_TYPES) {
      for (const [name, promised, sync] of operations(s, bad)) {
        await bothRefuse(promised, sync, (err) => {
          assert.ok(err instanceof TypeError, `${name}: ${err}`)
          assert.equal(err.code, 'ERR_INVALID_ARG_TYPE')
          assert.match(err.message, /^The "(path|from|to)" argument must be of type string or an instance of URL\. Received /)
          assert.doesNotMatch(err.message, /StringExpected|Rust|napi|expected/)
          return true
        }, `${name}(${String(bad)})`)
      }
    }
  }
})

test('other arguments of the wrong type', async () => {
  const t = tree()
  const [roots] = scopes(t)
  const p = `${t}/a/x.txt`
  const isType = (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE'
  await bothRefuse(() => roots.writeFile(p, 5), () => roots.writeFileSync(p, 5), isType, 'data')
  await bothRefuse(() => roots.writeFile(p, {}), () => roots.writeFileSync(p, {}), isType, 'data')
  await bothRefuse(() => roots.open(p, 5), () => roots.openSync(p, 5), isType, 'flags')
  await bothRefuse(() => roots.mkdir(`${t}/a/d`, 'yes'), () => roots.mkdirSync(`${t}/a/d`, 'yes'), isType, 'recursive')
  await bothRefuse(() => roots.readFile(p, 'latin1'), () => roots.readFileSync(p, 'latin1'), (e) => e instanceof TypeError, 'encoding')
  await bothRefuse(() => roots.walk(`${t}/a`, '1', 10), () => roots.walkSync(`${t}/a`, '1', 10), isType, 'maxDepth')
  assert.throws(() => new RootSet('file:///tmp'), isType)
  assert.throws(() => new RootSet(undefined), isType)
  assert.throws(() => new RootSet([5]), isType)
  assert.throws(() => new RootSet([`file://${t}/a`], 'hide'), isType)
  assert.throws(() => new Roots('policy'), isType)
  assert.throws(() => new Roots([]), isType)
  assert.equal(new RootSet([new URL(`file://${t}/a`)]).readFileSync(p, 'utf8'), 'hello')
  // confine: checked before anything is confined.
  const { confine } = require('mcp-roots')
  for (const bad of [undefined, 5, {}, new RootSet([])]) assert.throws(() => confine(bad), isType)
  assert.throws(() => confine(roots, 'required'), isType)
  assert.throws(() => roots.replace('file:///tmp'), isType)
  assert.throws(() => roots.replace([5]), isType)
  assert.throws(() => roots.replace([{ uri: 5 }]), isType)
  // Invalid flags: refused by the library's table, still a rejection.
  await assert.rejects(roots.open(p, 'zz'), /unsupported open flags/)
  // Data as any view is accepted.
  await roots.writeFile(`${t}/a/view.bin`, new Uint16Array([0x4241]))
  assert.equal(fs.readFileSync(`${t}/a/view.bin`, 'latin1'), 'AB')
})

test('walk limits cannot wrap: negative, fractional, non-finite, too large are a RangeError', async () => {
  const t = tree()
  for (const s of scopes(t)) {
    const dir = `${t}/a`
    for (const bad of [-1, -0.5, 1.5, Infinity, -Infinity, NaN, 2 ** 32 + 1 + 0.5, 2 ** 53, Number.MAX_VALUE]) {
      for (const args of [[bad, 100], [1, bad]]) {
        await bothRefuse(() => s.walk(dir, ...args), () => s.walkSync(dir, ...args), (err) => {
          assert.ok(err instanceof RangeError, String(err))
          assert.equal(err.code, 'ERR_OUT_OF_RANGE')
          assert.match(err.message, /^The value of "(maxDepth|maxEntries)" is out of range/)
          return true
        }, `walk(${args})`)
      }
    }
  }
})

test('walk limits are taken as given, beyond 32 bits too', async () => {
  const t = tree()
  fs.mkdirSync(`${t}/a/sub/deeper`)
  fs.writeFileSync(`${t}/a/sub/deeper/z.txt`, 'z')
  for (const s of scopes(t)) {
    const dir = `${t}/a`
    // 0 is 1: the start's own entries are always listed, nothing below.
    for (const depth of [0, 1]) {
      assert.deepEqual(s.walkSync(dir, depth, 100).entries.map((e) => e.rel).sort(), ['sub', 'x.txt'])
    }
    assert.equal(Math.max(...s.walkSync(dir, 2 ** 32 + 1, 100).entries.map((e) => e.depth)), 3)
    const one = s.walkSync(dir, 10, 1)
    assert.equal(one.entries.length, 1)
    assert.ok(one.truncated)
    assert.equal((await s.walk(dir, 10, 2 ** 32 + 1)).entries.length, 5)
    assert.equal((await s.walk(dir, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).entries.length, 5)
  }
})

test('FileHandle lengths and positions cannot wrap', async () => {
  const t = tree()
  const [roots] = scopes(t)
  const h = roots.openSync(`${t}/a/x.txt`, 'r+')
  const isRange = (err) => err instanceof RangeError && err.code === 'ERR_OUT_OF_RANGE'
  for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 32]) {
    await bothRefuse(() => h.read(bad), () => h.readSync(bad), isRange, `read(${bad})`)
  }
  for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 53]) {
    await bothRefuse(() => h.read(1, bad), () => h.readSync(1, bad), isRange, `read(1, ${bad})`)
    await bothRefuse(() => h.write('x', bad), () => h.writeSync('x', bad), isRange, `write(x, ${bad})`)
  }
  assert.equal((await h.read(2, 1)).toString(), 'el')
  h.closeSync()
})

test('a WHATWG URL is taken as its href', async () => {
  const t = tree()
  for (const s of scopes(t)) {
    const url = pathToFileURL(`${t}/a/x.txt`)
    assert.equal(s.readFileSync(url, 'utf8'), 'hello')
    assert.equal(await s.readFile(url, 'utf8'), 'hello')
    assert.equal(s.resolveSync(new URL(`file://${t}/a/sub/../x.txt`)).rel, 'x.txt')
    // Another scheme is the library's refusal.
    await assert.rejects(s.readFile(new URL('https://example.com/x')), (err) => err instanceof McpRootsError && err.reason === 'invalid_uri')
    assert.throws(() => s.readFileSync(new URL(`file://${t}/outside/secret.txt`)), (err) => err.reason === 'outside_roots')
  }
  const roots = new Roots()
  roots.replace([pathToFileURL(`${t}/a`)])
  assert.equal(roots.readFileSync(`${t}/a/x.txt`, 'utf8'), 'hello')
})

test('a lone surrogate is the library refusal invalid_uri, not another name', async () => {
  const t = tree()
  fs.writeFileSync(`${t}/a/\ufffd.txt`, 'replacement')
  for (const s of scopes(t)) {
    for (const name of ['\ud800.txt', 'x\udfff', 'sub/\ud83d']) {
      for (const form of [`${t}/a/${name}`, `file://${t}/a/${name}`]) {
        for (const [op, promised, sync] of operations(s, form)) {
          await bothRefuse(promised, sync, (err) => {
            assert.ok(err instanceof McpRootsError, `${op}: ${err}`)
            assert.equal(err.reason, 'invalid_uri')
            assert.equal(err.detail, 'the path is not valid UTF-8')
            return true
          }, `${op}(${JSON.stringify(form)})`)
        }
      }
    }
    // The U+FFFD file napi would have read instead stays unread.
    assert.throws(() => s.readFileSync(`${t}/a/\ud800.txt`), (err) => err.reason === 'invalid_uri')
  }
})

test('reads return Buffers of their own, sized by the file (no external buffers)', async () => {
  const t = tree()
  const big = Buffer.alloc(200 * 1024, 7)
  fs.writeFileSync(`${t}/a/big.bin`, big)
  fs.writeFileSync(`${t}/a/empty.bin`, '')
  for (const s of scopes(t)) {
    for (const [name, want] of [['x.txt', Buffer.from('hello')], ['big.bin', big], ['empty.bin', Buffer.alloc(0)]]) {
      const sync = s.readFileSync(`${t}/a/${name}`)
      const promised = await s.readFile(`${t}/a/${name}`)
      assert.deepEqual(sync, want)
      assert.deepEqual(promised, want)
      // Two reads never share memory (the scratch buffer is copied out).
      const again = s.readFileSync(`${t}/a/${name}`)
      if (want.length) {
        again[0] ^= 1
        assert.notEqual(again[0], sync[0])
      }
    }
  }
  const h = scopes(t)[0].openSync(`${t}/a/big.bin`)
  assert.deepEqual(h.readSync(), big)
  assert.deepEqual(await h.read(10, 0), big.subarray(0, 10))
})
