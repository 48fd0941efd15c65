'use strict'
// Wiring for the official TypeScript SDK's `McpServer`
// (@modelcontextprotocol/sdk 1.x): one session's roots, listed after
// initialisation and again on notifications/roots/list_changed, and
// refusals as tool errors.

const { RootsListChangedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js')
const { Roots, McpRootsError } = require('./index.js')

/** The tool result of a refusal: isError, the sentence, and the reason as structured content. */
function refusal(err) {
  return {
    isError: true,
    content: [{ type: 'text', text: err.sentence }],
    structuredContent: { reason: err.reason, detail: err.detail, input: err.input, operation: err.operation },
  }
}

/** Wraps a tool handler: an `McpRootsError` it throws becomes `refusal(err)`. */
function withRefusals(handler) {
  return async (...args) => {
    try {
      return await handler(...args)
    } catch (err) {
      if (err instanceof McpRootsError) return refusal(err)
      throw err
    }
  }
}

/**
 * Keeps the roots of the session an `McpServer` serves (one server per
 * connection, as the SDK's transports have it) under `policy` (the options
 * of `new Roots`). Returns `{ roots, current }`: `await current()` gives the
 * session's `Roots` once the latest listing has landed.
 */
function sessionRoots(mcpServer, policy) {
  const server = mcpServer.server ?? mcpServer
  const roots = new Roots(policy)
  let latest = Promise.resolve()
  let version = 0

  const refresh = () => {
    const mine = ++version
    const declared = server.getClientCapabilities()?.roots !== undefined
    const listing = declared ? server.listRoots() : Promise.resolve(null)
    latest = listing.then(
      (listed) => {
        // A later refresh wins: an older answer must not overwrite it.
        if (mine !== version) return
        if (listed === null) roots.replaceUndeclared()
        else roots.replace(listed.roots.map((r) => ({ uri: r.uri, name: r.name ?? null })))
      },
      () => {
        // The client did not answer: the session keeps what it had, and
        // before any answer it has no roots (no_roots).
      },
    )
    return latest
  }

  const before = server.oninitialized
  server.oninitialized = () => {
    before?.()
    refresh()
  }
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await refresh()
  })

  return {
    roots,
    refresh,
    async current() {
      let seen
      do {
        seen = latest
        await seen
      } while (seen !== latest)
      return roots
    },
  }
}

module.exports = { sessionRoots, refusal, withRefusals }
