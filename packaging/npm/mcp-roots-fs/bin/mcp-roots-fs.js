#!/usr/bin/env node
// The npm launcher of mcp-roots-fs: finds the binary of this platform's
// package (one of the optional dependencies, installed by npm for the
// matching os/cpu only) and runs it with this process's stdio, arguments
// and environment. The child's stdin, stdout and stderr are this process's
// own file descriptors (nothing is read, buffered or rewritten here); the
// signals that end a process are passed on to it, and its exit code (or the
// signal that ended it) becomes this process's.
'use strict';

const { spawn } = require('child_process');

// `${process.platform} ${process.arch}` -> the package holding the binary.
// build.js (beside this package) makes one package per entry (and reads this table).
const PLATFORMS = {
  'linux x64': '@mcp-roots-fs/linux-x64',
  'linux arm64': '@mcp-roots-fs/linux-arm64',
  'darwin x64': '@mcp-roots-fs/darwin-x64',
  'darwin arm64': '@mcp-roots-fs/darwin-arm64',
  'win32 x64': '@mcp-roots-fs/win32-x64',
};

// The binary's file name inside its package (`bin/`).
function executableName(platform) {
  return platform === 'win32' ? 'mcp-roots-fs.exe' : 'mcp-roots-fs';
}

// The package for a platform and architecture, or null when none is built.
function packageFor(platform, arch) {
  return PLATFORMS[`${platform} ${arch}`] || null;
}

class LaunchError extends Error {}

// The binary's absolute path: MCP_ROOTS_FS_BINARY when set (a binary built
// elsewhere), else the installed platform package's.
function binaryPath(platform, arch, resolve) {
  const override = process.env.MCP_ROOTS_FS_BINARY;
  if (override) return override;
  const pkg = packageFor(platform, arch);
  if (!pkg) {
    const supported = Object.keys(PLATFORMS).join(', ');
    throw new LaunchError(
      `no mcp-roots-fs binary is built for ${platform} ${arch} (built for: ${supported}); ` +
        'build it from source with `cargo install --locked --path mcp-roots-fs` ' +
        'and set MCP_ROOTS_FS_BINARY to its path, or run it directly',
    );
  }
  const file = `${pkg}/bin/${executableName(platform)}`;
  try {
    return resolve(file);
  } catch (_) {
    throw new LaunchError(
      `the package ${pkg}, which holds the mcp-roots-fs binary for ${platform} ${arch}, ` +
        'is not installed: it is an optional dependency, so an install with ' +
        '--omit=optional or --no-optional (or a lockfile made on another platform) ' +
        'leaves it out; reinstall mcp-roots-fs without that option',
    );
  }
}

// The signals a client or a terminal sends to end a server.
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

function run() {
  let binary;
  try {
    binary = binaryPath(process.platform, process.arch, require.resolve);
  } catch (err) {
    if (!(err instanceof LaunchError)) throw err;
    process.stderr.write(`mcp-roots-fs: ${err.message}\n`);
    process.exit(1);
  }
  // The handlers are in place before the child exists, so that no signal
  // between the spawn and their installation ends this process alone.
  let child = null;
  const forward = {};
  for (const signal of FORWARDED) {
    forward[signal] = () => {
      try {
        if (child) child.kill(signal);
      } catch (_) {
        // the child has already gone
      }
    };
    process.on(signal, forward[signal]);
  }
  child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
  child.on('error', (err) => {
    process.stderr.write(`mcp-roots-fs: could not start ${binary}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of FORWARDED) process.removeListener(s, forward[s]);
    if (signal) {
      // Ended by a signal: end this process by the same one, so that the
      // parent sees what the child's parent would have seen.
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

module.exports = { PLATFORMS, packageFor, executableName, binaryPath, LaunchError, run };

if (require.main === module) run();
