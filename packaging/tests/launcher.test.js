// The npm launcher's own behaviour, with stand-in binaries (shell scripts
// named by MCP_ROOTS_FS_BINARY) and a faked platform:
//
//   node --test packaging/tests/launcher.test.js
//
// The platform table, the messages when no binary fits, stdio passed
// through byte for byte, the exit code and the ending signal passed back,
// and SIGTERM/SIGINT passed on to the child.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const launcher = path.resolve(__dirname, '..', 'npm', 'mcp-roots-fs', 'bin', 'mcp-roots-fs.js');
const { packageFor, binaryPath, executableName } = require(launcher);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'launcher-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

function script(name, body) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

function launch(binary, args = [], input) {
  return spawnSync(process.execPath, [launcher, ...args], {
    env: { ...process.env, MCP_ROOTS_FS_BINARY: binary },
    input,
  });
}

test('each built platform has its package, and only those', () => {
  assert.strictEqual(packageFor('linux', 'x64'), '@mcp-roots-fs/linux-x64');
  assert.strictEqual(packageFor('linux', 'arm64'), '@mcp-roots-fs/linux-arm64');
  assert.strictEqual(packageFor('darwin', 'x64'), '@mcp-roots-fs/darwin-x64');
  assert.strictEqual(packageFor('darwin', 'arm64'), '@mcp-roots-fs/darwin-arm64');
  assert.strictEqual(packageFor('win32', 'x64'), '@mcp-roots-fs/win32-x64');
  for (const [p, a] of [['win32', 'arm64'], ['linux', 'ia32'], ['freebsd', 'x64'], ['aix', 'ppc64']]) {
    assert.strictEqual(packageFor(p, a), null, `${p} ${a}`);
  }
  assert.strictEqual(executableName('win32'), 'mcp-roots-fs.exe');
  assert.strictEqual(executableName('linux'), 'mcp-roots-fs');
});

test('the windows package is looked up with its .exe', () => {
  const saved = process.env.MCP_ROOTS_FS_BINARY;
  delete process.env.MCP_ROOTS_FS_BINARY;
  try {
    const asked = [];
    const found = binaryPath('win32', 'x64', (f) => (asked.push(f), `/modules/${f}`));
    assert.deepStrictEqual(asked, ['@mcp-roots-fs/win32-x64/bin/mcp-roots-fs.exe']);
    assert.strictEqual(found, '/modules/@mcp-roots-fs/win32-x64/bin/mcp-roots-fs.exe');
  } finally {
    if (saved !== undefined) process.env.MCP_ROOTS_FS_BINARY = saved;
  }
});

test('an unsupported platform: a clear message on stderr, status 1, nothing on stdout', () => {
  const env = { ...process.env };
  delete env.MCP_ROOTS_FS_BINARY;
  const code = `Object.defineProperty(process, 'platform', { value: 'aix' }); require(${JSON.stringify(launcher)}).run();`;
  const r = spawnSync(process.execPath, ['-e', code], { env });
  assert.strictEqual(r.status, 1);
  assert.strictEqual(r.stdout.length, 0);
  assert.match(r.stderr.toString(), /^mcp-roots-fs: no mcp-roots-fs binary is built for aix x64 \(built for: linux x64, /);
  assert.match(r.stderr.toString(), /cargo install --locked --path mcp-roots-fs/);
});

test('the platform package missing (optional dependencies omitted): a clear message, status 1', () => {
  // The launcher alone, outside any node_modules with the platform package.
  const alone = path.join(tmp, 'alone.js');
  fs.copyFileSync(launcher, alone);
  const env = { ...process.env };
  delete env.MCP_ROOTS_FS_BINARY;
  const r = spawnSync(process.execPath, [alone], { env, cwd: tmp });
  assert.strictEqual(r.status, 1);
  assert.strictEqual(r.stdout.length, 0);
  assert.match(r.stderr.toString(), /the package @mcp-roots-fs\/linux-x64, .* is not installed: it is an optional dependency/);
});

test('a binary that cannot start: a clear message, status 1', () => {
  const r = launch(path.join(tmp, 'no-such-binary'));
  assert.strictEqual(r.status, 1);
  assert.match(r.stderr.toString(), /^mcp-roots-fs: could not start .*no-such-binary: .*ENOENT/);
});

test('stdin to stdout and stderr byte for byte, arguments as given', () => {
  const echo = script('echo.sh', 'printf "%s|" "$@" >&2; cat');
  const input = Buffer.concat([Buffer.from('{"jsonrpc":"2.0"}\r\n\n'), Buffer.from([0, 255, 254, 10]), Buffer.alloc(300000, 7)]);
  const r = launch(echo, ['a b', '', '--flag', 'ü'], input);
  assert.strictEqual(r.status, 0);
  assert.ok(r.stdout.equals(input), 'stdout differs from stdin');
  assert.strictEqual(r.stderr.toString(), 'a b||--flag|ü|');
});

test('the exit code passes back', () => {
  for (const code of [0, 1, 3, 77, 255]) {
    assert.strictEqual(launch(script(`exit${code}.sh`, `exit ${code}`)).status, code);
  }
});

test('a child ended by a signal ends the launcher by the same signal', () => {
  const r = launch(script('killed.sh', 'kill -TERM $$'));
  assert.strictEqual(r.status, null);
  assert.strictEqual(r.signal, 'SIGTERM');
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  test(`${signal} to the launcher reaches the child, whose exit status comes back`, async () => {
    const ready = path.join(tmp, `ready-${signal}`);
    const child = script(`trap-${signal}.sh`, `trap 'exit 42' ${signal.slice(3)}\ntouch ${ready}\nwhile :; do sleep 0.05; done`);
    const p = spawn(process.execPath, [launcher], { env: { ...process.env, MCP_ROOTS_FS_BINARY: child }, stdio: 'ignore' });
    const deadline = Date.now() + 10000;
    while (!fs.existsSync(ready)) {
      assert.ok(Date.now() < deadline, 'the child did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    p.kill(signal);
    const [code, sig] = await new Promise((resolve) => p.on('exit', (c, s) => resolve([c, s])));
    assert.strictEqual(sig, null);
    assert.strictEqual(code, 42);
  });
}
