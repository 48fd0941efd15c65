'use strict'
// Errors of the native addon as `McpRootsError`s: `code` is
// `ERR_MCP_ROOTS_<REASON>`, `reason` the Rust crate's stable string, plus
// `input`, `operation`, `detail` and `sentence` (the text for a tool result).

const PREFIX = 'MCP_ROOTS_ERROR'

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
  }
}

/** The error of a native payload, or `err` itself when it is not one. */
function fromPayload(text) {
  return new McpRootsError(JSON.parse(text.slice(PREFIX.length)))
}

function convert(err) {
  if (err instanceof Error && typeof err.message === 'string' && err.message.startsWith(PREFIX)) {
    const ours = fromPayload(err.message)
    Error.captureStackTrace?.(ours, convert)
    return ours
  }
  return err
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

module.exports = { McpRootsError, convert, fromPayload, wrapMethods }
