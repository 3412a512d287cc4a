// Runs a real VS Code for the end-to-end test: code-server (the VS Code workbench served to a
// browser) in its own process group, with fresh user data and extension folders, and
// Debian's Chromium driven by playwright-core. Everything it starts, it stops.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { chromium } from 'playwright-core';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Quiet, offline and predictable: no welcome page, trust prompt, update or recommendation.
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'files.autoSave': 'off',
  'window.restoreWindows': 'none',
  'editor.minimap.enabled': false,
  'git.enabled': false,
};

/** Return a TCP port on 127.0.0.1 that was free a moment ago. */
async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Poll `url` until it answers 200, the process exits, or `timeoutMs` passes. */
async function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`code-server exited with code ${child.exitCode} before answering`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) {
        return;
      }
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
  throw new Error(`code-server did not answer ${url} within ${timeoutMs} ms`);
}

export class CodeServer {
  /**
   * @param {object} options
   * @param {string} options.codeServer  the code-server executable
   * @param {string} options.runDir      an empty folder for user data, extensions and logs
   */
  constructor({ codeServer, runDir }) {
    this.codeServer = codeServer;
    this.runDir = runDir;
    this.userData = path.join(runDir, 'user-data');
    this.extensions = path.join(runDir, 'extensions');
    this.child = undefined;
    this.url = undefined;
    this.env = {
      ...process.env,
      XDG_CONFIG_HOME: path.join(runDir, 'xdg', 'config'),
      XDG_DATA_HOME: path.join(runDir, 'xdg', 'data'),
      XDG_CACHE_HOME: path.join(runDir, 'xdg', 'cache'),
    };
    fs.mkdirSync(path.join(this.userData, 'User'), { recursive: true });
    fs.mkdirSync(this.extensions, { recursive: true });
    fs.writeFileSync(path.join(this.userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  }

  commonArgs() {
    return [
      '--auth',
      'none',
      '--user-data-dir',
      this.userData,
      '--extensions-dir',
      this.extensions,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
    ];
  }

  /** Install a .vsix the way a user would, with `code-server --install-extension`. */
  installExtension(vsix) {
    const result = spawnSync(this.codeServer, [...this.commonArgs(), '--install-extension', vsix], {
      env: this.env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0) {
      throw new Error(`--install-extension failed (${result.status}): ${result.stdout}${result.stderr}`);
    }
    return result.stdout;
  }

  /** Start code-server in a new process group, and wait until it serves. */
  async start() {
    const port = await freePort();
    const log = fs.openSync(path.join(this.runDir, 'code-server.log'), 'w');
    // detached: code-server, its extension hosts and the lintgv servers they start share one
    // new process group, which stop() ends as a whole.
    this.child = spawn(this.codeServer, [...this.commonArgs(), '--bind-addr', `127.0.0.1:${port}`], {
      env: this.env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${this.url}/healthz`, this.child, 60_000);
  }

  /** End the process group this object started: TERM, then KILL after a grace period. */
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      return;
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const signalGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    signalGroup('SIGTERM');
    const timeout = delay(5000).then(() => 'timeout');
    if ((await Promise.race([exited, timeout])) === 'timeout') {
      signalGroup('SIGKILL');
      await exited;
    }
    // Children that outlived code-server (an orphaned server) are in the same group.
    signalGroup('SIGKILL');
  }

  /** The URL that opens a folder, or a .code-workspace file, in the workbench. */
  urlFor(target) {
    const key = target.endsWith('.code-workspace') ? 'workspace' : 'folder';
    return `${this.url}/?${key}=${encodeURIComponent(target)}`;
  }
}

export async function launchBrowser(executablePath) {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}
