'use strict'
// mcp-roots: the native addon (napi-rs) with its errors as `McpRootsError`s.
// Conversions only; every decision is the Rust crate's.

const native = require('../index.js')
const {
  ConfinementError, McpRootsError, PatternError, convert, converting, convertingConstructor, fromPayload, wrapMethods,
} = require('./errors.js')
const { check, checking, typeError } = require('./arguments.js')

const OPERATIONS = [
  'open', 'openSync', 'readBytes', 'readBytesSync', 'readText', 'readTextSync',
  'writeFile', 'writeFileSync', 'readdir', 'readdirSync', 'walk', 'walkSync',
  'stat', 'statSync', 'mkdir', 'mkdirSync', 'unlink', 'unlinkSync', 'rmdir', 'rmdirSync',
  'rename', 'renameSync', 'copyFile', 'copyFileSync', 'resolve', 'resolveSync',
]
const { FileHandle } = native
// A path that cannot be UTF-8 (a lone surrogate) is the library's refusal
// (`invalid_uri`), built by the addon.
const notUtf8 = converting(native.notUtf8)
// The constructors raise a PatternError for a bad pattern, a TypeError for
// arguments of the wrong type.
const Roots = convertingConstructor(native.Roots, (args) => check('newRoots', args, notUtf8))
const RootSet = convertingConstructor(native.RootSet, (args) => check('newRootSet', args, notUtf8))
wrapMethods(Roots.prototype, OPERATIONS)
wrapMethods(Roots.prototype, ['mayAsk', 'grant', 'endGrant'])
wrapMethods(RootSet.prototype, OPERATIONS)
wrapMethods(FileHandle.prototype, ['read', 'readSync', 'write', 'writeSync', 'statSync', 'whereSync', 'close', 'closeSync'])

// Arguments in Node's terms (lib/arguments.js): a TypeError or RangeError
// before the addon sees them; the promise methods reject with it.
const PROMISED = ['open', 'readBytes', 'readText', 'writeFile', 'readdir', 'walk', 'stat', 'mkdir', 'unlink', 'rmdir', 'rename', 'copyFile', 'resolve']
for (const Class of [Roots, RootSet]) {
  for (const name of PROMISED) {
    checking(Class.prototype, name, name, true, notUtf8)
    checking(Class.prototype, `${name}Sync`, name, false, notUtf8)
  }
}
checking(Roots.prototype, 'replace', 'replace', false, notUtf8)
checking(Roots.prototype, 'forRequest', 'forRequest', false, notUtf8)
checking(Roots.prototype, 'mayAsk', 'mayAsk', false, notUtf8)
checking(FileHandle.prototype, 'read', 'fileRead', true, notUtf8)
checking(FileHandle.prototype, 'readSync', 'fileRead', false, notUtf8)
checking(FileHandle.prototype, 'write', 'fileWrite', true, notUtf8)
checking(FileHandle.prototype, 'writeSync', 'fileWrite', false, notUtf8)

// Refused roots carry their error as an `McpRootsError`, walks their errors.
const withErrors = (rejected) => rejected.map((r) => ({ ...r, error: fromPayload(r.error) }))
for (const name of ['replace', 'replaceUndeclared', 'rescan']) {
  const method = Roots.prototype[name]
  Roots.prototype[name] = function (...args) {
    const report = method.apply(this, args)
    return { ...report, rejected: withErrors(report.rejected) }
  }
}
for (const Class of [Roots, RootSet]) {
  const getter = Object.getOwnPropertyDescriptor(Class.prototype, 'rejected').get
  Object.defineProperty(Class.prototype, 'rejected', { configurable: true, get() { return withErrors(getter.call(this)) } })
  for (const name of ['walk', 'walkSync']) {
    const method = Class.prototype[name]
    const fix = (w) => ({ ...w, errors: w.errors.map(fromPayload) })
    Class.prototype[name] = function (...args) {
      const out = method.apply(this, args)
      return out instanceof Promise ? out.then(fix) : fix(out)
    }
  }
}

// A synchronous read lands in one scratch buffer and is copied into a
// Buffer from Node's pool (what fs.readFileSync returns): cheaper than a
// Buffer the addon creates for each call. One scratch per thread (a Worker
// has its own module instance); a call fills it and empties it before it
// returns, so nothing else ever sees it.
const SCRATCH_BYTES = 64 * 1024
let scratch = null
function readBytesSync(...args) {
  const [path] = check('readInto', args, notUtf8)
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES)
  let got
  try {
    got = this.readIntoSync(path, scratch)
  } catch (err) {
    throw convert(err)
  }
  if (typeof got !== 'number') return got
  const out = Buffer.allocUnsafe(got)
  scratch.copy(out, 0, 0, got)
  return out
}

/** `roots.readFile(path)` resolves to a Buffer, `readFile(path, 'utf8')` to a string (as `fs`). */
for (const Class of [Roots, RootSet]) {
  Class.prototype.readBytesSync = readBytesSync
  Class.prototype.readFile = function (path, encoding) {
    try {
      return isUtf8(encoding) ? this.readText(path) : this.readBytes(path)
    } catch (err) {
      return Promise.reject(err)
    }
  }
  Class.prototype.readFileSync = function (path, encoding) {
    return encoding === undefined || !isUtf8(encoding) ? this.readBytesSync(path) : this.readTextSync(path)
  }
}

function isUtf8(encoding) {
  const e = typeof encoding === 'string' ? encoding : encoding?.encoding
  if (e == null) return false
  if (e === 'utf8' || e === 'utf-8') return true
  throw new TypeError(`unsupported encoding ${JSON.stringify(e)}: read bytes and decode them`)
}

/**
 * Confines the whole process, irreversibly, to the ceiling of `roots`
 * (Landlock): the main thread and the threads it starts afterwards.
 * `{ required: true }` always throws under Node (it has threads before any
 * script runs).
 */
const nativeConfine = converting(native.confine)
function confine(roots, options) {
  if (!(roots instanceof Roots)) throw typeError('roots', 'an instance of Roots', roots)
  if (options != null && (typeof options !== 'object' || Array.isArray(options))) throw typeError('options', 'of type object', options)
  return nativeConfine(roots, options)
}

// `roots.watch(callback?)`: a `Watcher` whose `close()` stops it. No
// callback runs once `close()` returned (an event already queued for the
// event loop is dropped). The watcher never keeps the process alive.
const { Watcher } = native
const nativeWatch = Roots.prototype.watch
Roots.prototype.watch = function (callback) {
  if (callback != null && typeof callback !== 'function') throw typeError('callback', 'of type function', callback)
  let watcher = null
  const guarded = callback == null ? undefined : (event) => { if (watcher !== null && !watcher.closed) callback(event) }
  try {
    watcher = nativeWatch.call(this, guarded)
  } catch (err) {
    throw convert(err)
  }
  return watcher
}
if (typeof Symbol.dispose === 'symbol') Watcher.prototype[Symbol.dispose] = function () { this.close() }

module.exports = {
  Roots, RootSet, FileHandle, Watcher, McpRootsError, PatternError, ConfinementError, confine, REASONS: native.reasons(),
}
