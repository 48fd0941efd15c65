'use strict'
// The example server (examples/server.js) driven by the official SDK's
// client over stdio: the three tools, refusals as tool errors checked on
// disk, a roots change announced with roots/list_changed, and a client
// without the roots capability.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { ListRootsRequestSchema } = require('@modelcontextprotocol/sdk/types.js')
const { tree } = require('./helpers.js')

const SERVER = path.resolve(__dirname, '../examples/server.js')
const textOf = (r) => r.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n')

const asked = { count: 0 }

/** Resolves once the server has asked for roots `n` times in all (bounded). */
async function askedTimes(n) {
  for (let i = 0; i < 200 && asked.count < n; i++) await new Promise((r) => setTimeout(r, 25))
  assert.ok(asked.count >= n, `the server asked for roots ${asked.count} times, not ${n}`)
}

async function connect(shared) {
  const client = new Client({ name: 'test', version: '0' }, { capabilities: shared ? { roots: { listChanged: true } } : {} })
  if (shared) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.count++
      return { roots: shared.map((uri) => ({ uri, name: 'r' })) }
    })
  }
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: path.dirname(SERVER), stderr: 'inherit' }))
  return client
}

test('three tools, refusals and a roots change through the SDK client', async () => {
  const t = tree()
  const shared = [`file://${t}/a`]
  const asks = asked.count
  const client = await connect(shared)
  try {
    // Listed after initialisation, before any tool call.
    await askedTimes(asks + 1)
    const call = (name, args) => client.callTool({ name, arguments: args })
    const read = await call('read_file', { path: `${t}/a/x.txt` })
    assert.ok(!read.isError)
    assert.equal(textOf(read), 'hello')
    const wrote = await call('write_file', { path: `${t}/a/new.txt`, text: 'fresh' })
    assert.equal(textOf(wrote), `wrote file://${t}/a/new.txt`)
    assert.equal(fs.readFileSync(`${t}/a/new.txt`, 'utf8'), 'fresh')
    assert.equal(textOf(await call('list_dir', { path: `file://${t}/a` })), 'new.txt\nsub/\nx.txt')

    for (const escape of [`${t}/a/../outside/secret.txt`, `file://${t}/a/%2e%2e/outside/secret.txt`, `${t}/outside/secret.txt`]) {
      const refused = await call('read_file', { path: escape })
      assert.equal(refused.isError, true)
      assert.equal(refused.structuredContent.reason, 'outside_roots')
      assert.ok(textOf(refused).startsWith('Refused (outside_roots): '))
    }
    const before = fs.readdirSync(`${t}/outside`)
    const planted = await call('write_file', { path: `${t}/a/../outside/planted.txt`, text: 'x' })
    assert.equal(planted.structuredContent.reason, 'outside_roots')
    assert.deepEqual(fs.readdirSync(`${t}/outside`), before)

    shared.splice(0, 1, `file://${t}/b`)
    await client.sendRootsListChanged()
    // Listed again on the notification, before any tool call.
    await askedTimes(asks + 2)
    // The notification is handled in order: the next call waits for the new list.
    const old = await call('read_file', { path: `${t}/a/x.txt` })
    assert.equal(old.structuredContent.reason, 'outside_roots')
    assert.ok(!(await call('write_file', { path: `${t}/b/n.txt`, text: 'b' })).isError)
    assert.equal(fs.readFileSync(`${t}/b/n.txt`, 'utf8'), 'b')
  } finally {
    await client.close()
  }
})

test('a client without the roots capability gets the policy (no_roots)', async () => {
  const t = tree()
  const client = await connect(null)
  try {
    const r = await client.callTool({ name: 'read_file', arguments: { path: `${t}/a/x.txt` } })
    assert.equal(r.isError, true)
    assert.equal(r.structuredContent.reason, 'no_roots')
  } finally {
    await client.close()
  }
})
