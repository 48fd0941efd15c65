// Type-checks the declarations (tsc --noEmit -p .): not run.
import { Roots, RootSet, McpRootsError, PatternError, ConfinementError, confine } from 'mcp-roots'
import type { ScopeEvent, Watcher } from 'mcp-roots'
import { sessionRoots, withRefusals } from 'mcp-roots/mcp'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'

async function check(): Promise<void> {
  const roots = new Roots({ ceiling: ['/srv'], writes: 'refuse' })
  const report = roots.replace(['file:///srv/a', { uri: '/srv/b', name: 'b' }])
  const reason: string = report.rejected[0].error.reason
  const text: string = await roots.readFile('/srv/a/x', 'utf8')
  const bytes: Buffer = roots.readFileSync('/srv/a/x')
  const handle = await roots.open('/srv/a/x', 'r')
  const chunk: Buffer = await handle.read(10)
  const set = new RootSet(['/srv'], { hide: ['.env'], readOnlyPatterns: ['*.lock'] })
  const hides: string[] = new Roots({ hide: ['/secrets/'], readOnlyPatterns: ['/vendor/'] }).roots[0].hides
  const pattern = (e: McpRootsError): string | null => e.pattern
  const bad = (e: PatternError): [string, string] => [e.pattern, e.code]
  const kind = (e: ConfinementError): string => e.kind
  const enforcement: string = confine(roots, { required: false }).enforcement
  const walk = set.walkSync('/srv', 2, 100)
  const err: McpRootsError | undefined = walk.errors[0]
  const session = sessionRoots(new McpServer({ name: 'x', version: '0' }))
  const live: Roots = await session.current()
  const tool = withRefusals(async (a: { path: string }) => ({ content: [{ type: 'text' as const, text: a.path }] }))
  const watcher: Watcher = roots.watch((e: ScopeEvent) => { const k: string = e.kind; void [k, e.uri, e.path, e.reason] })
  const silent: Watcher = roots.watch()
  watcher.close()
  const closed: boolean = silent.closed
  void [reason, text, bytes, chunk, err, live, tool, hides, pattern, bad, kind, enforcement, closed]
}
void check
