import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpRootsError, Policy, Roots } from './index'

/** The tool result of a refusal: isError, the sentence, the reason as structured content. */
export declare function refusal(err: McpRootsError): CallToolResult

/** Wraps a tool handler: an `McpRootsError` it throws becomes `refusal(err)`. */
export declare function withRefusals<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R | CallToolResult>

export interface SessionRoots {
  /** The session's roots (replaced as the client's list changes). */
  readonly roots: Roots
  /** Lists the client's roots again. */
  refresh(): Promise<void>
  /** The session's roots once the latest listing has landed. */
  current(): Promise<Roots>
}

/** Keeps the roots of the session `server` serves, under `policy`. */
export declare function sessionRoots(server: McpServer | Server, policy?: Policy): SessionRoots
