'use strict'
// Arguments in Node's terms, checked before the native addon sees them:
// a wrong type is a `TypeError` (`ERR_INVALID_ARG_TYPE`), a number out of
// range a `RangeError` (`ERR_OUT_OF_RANGE`), as `node:fs` throws them;
// the promise methods reject with them instead of throwing. Only types
// and ranges are checked here; what a path means is the library's.

/** How Node's own errors describe a received value. */
function received(value) {
  if (value == null) return ` Received ${value}`
  if (typeof value === 'function') return ` Received function ${value.name || '<anonymous>'}`
  if (typeof value === 'object') {
    const name = value.constructor?.name
    return name ? ` Received an instance of ${name}` : ' Received [object]'
  }
  let shown = typeof value === 'string' && value.length > 28 ? `${value.slice(0, 25)}...` : value
  if (typeof value === 'string') shown = `'${shown}'`
  if (typeof value === 'bigint') shown = `${value}n`
  return ` Received type ${typeof value} (${String(shown)})`
}

function typeError(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}.${received(value)}`)
  err.code = 'ERR_INVALID_ARG_TYPE'
  return err
}

function rangeError(name, range, value) {
  const err = new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${String(value)}`)
  err.code = 'ERR_OUT_OF_RANGE'
  return err
}

/**
 * A path: a string (an absolute path or a `file:` URI, the library judges
 * which) or a WHATWG `URL`, passed on as its `href` (what the `URL` object
 * says after its own parsing; a scheme other than `file:` is the library's
 * `invalid_uri`). A string that is not well-formed UTF-16 (a lone
 * surrogate) cannot be UTF-8: `notUtf8` throws the library's refusal.
 */
function path(name, value, notUtf8) {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) notUtf8(value)
    return value
  }
  if (value instanceof URL) return value.href
  throw typeError(name, 'of type string or an instance of URL', value)
}

/** A limit: an integer from 0 to `Number.MAX_SAFE_INTEGER`, never wrapped. */
function limit(name, value) {
  if (typeof value !== 'number') throw typeError(name, 'of type number', value)
  if (!Number.isSafeInteger(value) || value < 0) {
    throw rangeError(name, `an integer >= 0 and <= ${Number.MAX_SAFE_INTEGER}`, value)
  }
  return value
}

/** An optional integer from 0 to `max`. */
function optionalInteger(name, value, max) {
  if (value == null) return undefined
  if (typeof value !== 'number') throw typeError(name, 'of type number', value)
  if (!Number.isInteger(value) || value < 0 || value > max) throw rangeError(name, `an integer >= 0 and <= ${max}`, value)
  return value
}

function optionalBoolean(name, value) {
  if (value == null) return undefined
  if (typeof value !== 'boolean') throw typeError(name, 'of type boolean', value)
  return value
}

function optionalString(name, value) {
  if (value == null) return undefined
  if (typeof value !== 'string') throw typeError(name, 'of type string', value)
  return value
}

/** Data to write: a string (written as UTF-8), a Buffer, a TypedArray or a DataView. */
function data(name, value) {
  if (typeof value === 'string' || Buffer.isBuffer(value)) return value
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  throw typeError(name, 'of type string or an instance of Buffer, TypedArray, or DataView', value)
}

/** A root list: an array of strings, `URL`s or `{ uri, name? }`. */
function rootList(name, value, notUtf8) {
  if (!Array.isArray(value)) throw typeError(name, 'an instance of Array', value)
  return value.map((root, i) => {
    if (root !== null && typeof root === 'object' && !(root instanceof URL)) {
      return { uri: path(`${name}[${i}].uri`, root.uri, notUtf8), name: optionalString(`${name}[${i}].name`, root.name) }
    }
    return path(`${name}[${i}]`, root, notUtf8)
  })
}

const UINT32 = 2 ** 32 - 1

/** The arguments of each operation, by position: [name, kind]. */
const SPECS = {
  open: [['path', 'path'], ['flags', 'string?']],
  readBytes: [['path', 'path']],
  readText: [['path', 'path']],
  readInto: [['path', 'path']],
  writeFile: [['path', 'path'], ['data', 'data']],
  readdir: [['path', 'path']],
  walk: [['path', 'path'], ['maxDepth', 'limit'], ['maxEntries', 'limit']],
  stat: [['path', 'path']],
  mkdir: [['path', 'path'], ['recursive', 'boolean?']],
  unlink: [['path', 'path']],
  rmdir: [['path', 'path']],
  rename: [['from', 'path'], ['to', 'path'], ['replace', 'boolean?']],
  copyFile: [['from', 'path'], ['to', 'path']],
  resolve: [['path', 'path']],
  replace: [['roots', 'roots']],
  newRoots: [['policy', 'object?']],
  newRootSet: [['roots', 'roots'], ['options', 'object?']],
  forRequest: [['roots', 'roots?']],
  mayAsk: [['path', 'path'], ['access', 'string?']],
  fileRead: [['length', 'uint32?'], ['position', 'position?']],
  fileWrite: [['data', 'data'], ['position', 'position?']],
}

/** `args` checked and converted by the spec of `name`. */
function check(name, args, notUtf8) {
  const spec = SPECS[name]
  const out = args.slice(0, spec.length)
  spec.forEach(([arg, kind], i) => {
    const v = args[i]
    switch (kind) {
      case 'path': out[i] = path(arg, v, notUtf8); break
      case 'string?': out[i] = optionalString(arg, v); break
      case 'boolean?': out[i] = optionalBoolean(arg, v); break
      case 'limit': out[i] = limit(arg, v); break
      case 'data': out[i] = data(arg, v); break
      case 'roots': out[i] = rootList(arg, v, notUtf8); break
      case 'roots?': out[i] = v == null ? v : rootList(arg, v, notUtf8); break
      case 'object?':
        if (v != null && (typeof v !== 'object' || Array.isArray(v))) throw typeError(arg, 'of type object', v)
        break
      case 'uint32?': out[i] = optionalInteger(arg, v, UINT32); break
      case 'position?': out[i] = optionalInteger(arg, v, Number.MAX_SAFE_INTEGER); break
      default: throw new Error(`no such argument kind ${kind}`)
    }
  })
  return out
}

/**
 * Wraps `proto[method]` so that its arguments are checked by `spec`
 * first; a promise method (`promise`) returns a rejected promise instead
 * of throwing, whatever throws before its work starts.
 */
function checking(proto, method, spec, promise, notUtf8) {
  const inner = proto[method]
  if (typeof inner !== 'function') throw new Error(`no method ${method}`)
  Object.defineProperty(proto, method, {
    configurable: true,
    writable: true,
    value: promise
      ? function (...args) {
        try {
          return inner.apply(this, check(spec, args, notUtf8))
        } catch (err) {
          return Promise.reject(err)
        }
      }
      : function (...args) {
        return inner.apply(this, check(spec, args, notUtf8))
      },
  })
}

module.exports = { check, checking, typeError, SPECS }
