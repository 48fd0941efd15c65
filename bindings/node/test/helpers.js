'use strict'
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const DATA = process.env.MCP_ROOTS_CORPUS_DIR ?? path.resolve(__dirname, '../../../testkit/data')

/** A fresh tree: a/x.txt, a/sub/y.txt, b/, outside/secret.txt. */
function tree() {
  const t = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mr')))
  for (const d of ['a/sub', 'b', 'outside']) fs.mkdirSync(path.join(t, d), { recursive: true })
  fs.writeFileSync(path.join(t, 'a/x.txt'), 'hello')
  fs.writeFileSync(path.join(t, 'a/sub/y.txt'), 'y')
  fs.writeFileSync(path.join(t, 'outside/secret.txt'), 'secret')
  return t
}

function corpus() {
  const cases = JSON.parse(fs.readFileSync(path.join(DATA, 'escape_corpus.json'), 'utf8'))
  const outcomes = JSON.parse(fs.readFileSync(path.join(DATA, 'escape_corpus_outcomes.json'), 'utf8'))
  return { cases, outcomes }
}

module.exports = { tree, corpus }
