'use strict'
// An MCP server (official TypeScript SDK, stdio) with three tools kept
// inside the client's roots: read_file, write_file, list_dir.
//
//   node examples/server.js
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js')
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js')
const { z } = require('zod')
const { sessionRoots, withRefusals } = require('mcp-roots/mcp')

const server = new McpServer({ name: 'mcp-roots-example', version: '0.1.0' })
const session = sessionRoots(server)
const text = (t) => ({ content: [{ type: 'text', text: t }] })

server.registerTool('read_file', { description: 'Read a UTF-8 text file inside the shared folders', inputSchema: { path: z.string() } },
  withRefusals(async ({ path }) => text(await (await session.current()).readFile(path, 'utf8'))))

server.registerTool('write_file', { description: 'Replace (or create) a text file inside the shared folders', inputSchema: { path: z.string(), text: z.string() } },
  withRefusals(async ({ path, text: body }) => {
    const roots = await session.current()
    await roots.writeFile(path, body)
    return text(`wrote ${(await roots.resolve(path)).uri}`)
  }))

server.registerTool('list_dir', { description: "List a directory inside the shared folders (directories end in '/')", inputSchema: { path: z.string() } },
  withRefusals(async ({ path }) => {
    const entries = await (await session.current()).readdir(path)
    return text(entries.map((e) => e.name + (e.type === 'dir' ? '/' : '')).sort().join('\n'))
  }))

server.connect(new StdioServerTransport())
