'use strict'
// Errors of the native addon as `McpRootsError`s: `code` is
// `ERR_MCP_ROOTS_<REASON>`, `reason` the Rust crate's stable string, plus
// `input`, `operation`, `detail`, `sentence` (the text for a tool result)
// and `pattern` (the server's pattern that made the path `hidden` or
// `read_only`, else null). A bad pattern is a `PatternError` (a
// `TypeError`), a refused confinement a `ConfinementError`.

const PREFIX = 'MCP_ROOTS_ERROR'
const PATTERN = 'MCP_ROOTS_PATTERN'
const CONFINEMENT = 'MCP_ROOTS_CONFINEMENT'

class McpRootsError extends Error {
  constructor(fields) {
    super(fields.message)
    this.name = 'McpRootsError'
    this.code = `ERR_MCP_ROOTS_${fields.reason.toUpperCase()}`
    this.reason = fields.reason
    this.input = fields.input
    this.operation = fields.operation
    this.detail = fields.detail
    this.sentence = fields.sentence
    this.pattern = fields.pattern ?? null
  }
}

/** A hide or read-only pattern that does not parse: `pattern` as given, `detail` why. */
class PatternError extends TypeError {
  constructor(fields) {
    super(fields.message)
    this.name = 'PatternError'
    this.code = 'ERR_MCP_ROOTS_INVALID_PATTERN'
    this.pattern = fields.pattern
    this.detail = fields.detail
  }
}

/** `confine` did not confine the process: `kind` is `no_ceiling`, `unsupported`, `threads` or `kernel`. */
class ConfinementError extends Error {
  constructor(fields) {
    super(fields.message)
    this.name = 'ConfinementError'
    this.code = `ERR_MCP_ROOTS_CONFINEMENT_${fields.kind.toUpperCase()}`
    this.kind = fields.kind
  }
}

/** The error of a native payload, or `err` itself when it is not one. */
function fromPayload(text) {
  return new McpRootsError(JSON.parse(text.slice(PREFIX.length)))
}

const CLASSES = [[PREFIX, McpRootsError], [PATTERN, PatternError], [CONFINEMENT, ConfinementError]]

function convert(err) {
  if (err instanceof Error && typeof err.message === 'string') {
    for (const [prefix, Class] of CLASSES) {
      if (err.message.startsWith(prefix)) {
        const ours = new Class(JSON.parse(err.message.slice(prefix.length)))
        Error.captureStackTrace?.(ours, convert)
        return ours
      }
    }
  }
  return err
}

/** `fn`, whose native errors become ours. */
function converting(fn) {
  return function (...args) {
    try {
      return fn.apply(this, args)
    } catch (err) {
      throw convert(err)
    }
  }
}

/**
 * `Class` constructed through a proxy whose native errors become ours
 * (`instanceof` still holds); `prepare(args)`, when given, checks and
 * converts the arguments first.
 */
function convertingConstructor(Class, prepare = (args) => args) {
  const proxy = new Proxy(Class, {
    construct(target, args, newTarget) {
      const checked = prepare(args)
      try {
        return Reflect.construct(target, checked, newTarget === proxy ? target : newTarget)
      } catch (err) {
        throw convert(err)
      }
    },
  })
  return proxy
}

/** Wraps every method of `proto`: a thrown or rejected native error becomes an `McpRootsError`. */
function wrapMethods(proto, names) {
  for (const name of names) {
    const native = proto[name]
    if (typeof native !== 'function') throw new Error(`no native method ${name}`)
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (...args) {
        let out
        try {
          out = native.apply(this, args)
        } catch (err) {
          throw convert(err)
        }
        return out instanceof Promise ? out.catch((err) => { throw convert(err) }) : out
      },
    })
  }
}

module.exports = {
  ConfinementError, McpRootsError, PatternError, convert, converting, convertingConstructor, fromPayload, wrapMethods,
}
