#!/usr/bin/env node
// Makes the npm packages of mcp-roots-fs from built binaries:
//
//   node packaging/npm/build.js --out DIR [--binary PLATFORM=PATH]...
//
// PLATFORM is a key of the launcher's table in the npm form `linux-x64`,
// `win32-x64`, …; each binary given becomes the package
// `@mcp-roots-fs/PLATFORM` (its `os`, `cpu` and, on Linux, `libc` fields
// set, so npm installs it only where it runs), in DIR/PLATFORM. The
// launcher package `mcp-roots-fs` (DIR/mcp-roots-fs) lists every platform
// of the table as an optional dependency, whether or not its binary was
// given here (a release gives them all). One version for all: the crate's,
// read from mcp-roots-fs/Cargo.toml.
'use strict';

const fs = require('fs');
const path = require('path');
const { PLATFORMS, executableName } = require('./mcp-roots-fs/bin/mcp-roots-fs.js');

const repo = path.resolve(__dirname, '..', '..');

function crateVersion() {
  const manifest = fs.readFileSync(path.join(repo, 'mcp-roots-fs', 'Cargo.toml'), 'utf8');
  const pkg = manifest.split(/^\[/m).find((s) => s.startsWith('package]'));
  const m = pkg && pkg.match(/^version\s*=\s*"([^"]+)"/m);
  if (!m) throw new Error('no [package] version in mcp-roots-fs/Cargo.toml');
  return m[1];
}

// The MCP Registry's name (mcp-roots-fs/server.json): the registry checks
// that the npm package's `mcpName` is the same.
function registryName() {
  return JSON.parse(fs.readFileSync(path.join(repo, 'mcp-roots-fs', 'server.json'), 'utf8')).name;
}

function parseArgs(argv) {
  const args = { out: null, binaries: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') args.out = argv[++i];
    else if (a === '--binary') {
      const [key, file] = (argv[++i] || '').split(/=(.*)/s);
      if (!key || !file) throw new Error(`--binary wants PLATFORM=PATH, not ${argv[i]}`);
      args.binaries[key] = file;
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!args.out) throw new Error('--out DIR is required');
  return args;
}

const common = { license: 'MIT OR Apache-2.0' };

function writeJson(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function main() {
  const { out, binaries } = parseArgs(process.argv.slice(2));
  const version = crateVersion();
  const byKey = {};
  for (const [osArch, pkg] of Object.entries(PLATFORMS)) {
    const [os, cpu] = osArch.split(' ');
    byKey[`${os}-${cpu}`] = { os, cpu, pkg };
  }
  for (const key of Object.keys(binaries)) {
    if (!byKey[key]) throw new Error(`unknown platform ${key} (known: ${Object.keys(byKey).join(', ')})`);
  }
  fs.rmSync(out, { recursive: true, force: true });

  // The platform packages: the binary in bin/, nothing else to run.
  for (const [key, file] of Object.entries(binaries)) {
    const { os, cpu, pkg } = byKey[key];
    const dir = path.join(out, key);
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    const exe = path.join(dir, 'bin', executableName(os));
    fs.copyFileSync(file, exe);
    fs.chmodSync(exe, 0o755);
    const manifest = {
      name: pkg,
      version,
      description: `The mcp-roots-fs binary for ${os} ${cpu} (installed by the mcp-roots-fs package)`,
      ...common,
      os: [os],
      cpu: [cpu],
      files: ['bin/'],
      preferUnplugged: true,
    };
    // The Linux binaries are linked against glibc (2.17 or later).
    if (os === 'linux') manifest.libc = ['glibc'];
    writeJson(path.join(dir, 'package.json'), manifest);
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      `# ${pkg}\n\nThe \`mcp-roots-fs\` binary for ${os} ${cpu}. Install \`mcp-roots-fs\` instead:\nits launcher picks this package.\n`,
    );
  }

  // The launcher package.
  const src = path.join(__dirname, 'mcp-roots-fs');
  const dir = path.join(out, 'mcp-roots-fs');
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(src, 'bin', 'mcp-roots-fs.js'), path.join(dir, 'bin', 'mcp-roots-fs.js'));
  fs.chmodSync(path.join(dir, 'bin', 'mcp-roots-fs.js'), 0o755);
  fs.copyFileSync(path.join(src, 'README.md'), path.join(dir, 'README.md'));
  for (const license of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    fs.copyFileSync(path.join(repo, license), path.join(dir, license));
  }
  writeJson(path.join(dir, 'package.json'), {
    name: 'mcp-roots-fs',
    version,
    mcpName: registryName(),
    description:
      'A drop-in replacement for the official MCP filesystem server, with every file operation kept inside the folders the user shared',
    ...common,
    keywords: ['mcp', 'filesystem', 'server', 'sandbox', 'roots'],
    bin: { 'mcp-roots-fs': 'bin/mcp-roots-fs.js' },
    files: ['bin/', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'],
    engines: { node: '>=16' },
    optionalDependencies: Object.fromEntries(Object.values(byKey).map(({ pkg }) => [pkg, version])),
  });
  process.stdout.write(`${version}\n`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`build.js: ${err.message}\n`);
  process.exit(1);
}
