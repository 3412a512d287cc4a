// The VS Code extension end to end: the packaged .vsix installed into a real VS Code
// (code-server), the real `lintgv server`, and a person's actions in headless Chromium.
//
// Run by scripts/vscode-e2e, which sets:
//   CODE_SERVER  the code-server executable      VSIX    the extension package to install
//   LINTGV       the lintgv executable to test   OUT_DIR screenshots and logs go here
//   CHROMIUM     the browser (default /usr/bin/chromium)

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CodeServer, launchBrowser } from './harness.mjs';
import { Workbench } from './workbench.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run this test through scripts/vscode-e2e`);
  }
  return value;
}

const CODE_SERVER = required('CODE_SERVER');
const VSIX = path.resolve(required('VSIX'));
const LINTGV = path.resolve(required('LINTGV'));
const OUT_DIR = path.resolve(required('OUT_DIR'));
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// Outside the repository, so neither its pyproject.toml nor its .gitignore applies.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lintgv-vscode-e2e-'));
const ws = path.join(runDir, 'ws');
const missingLintgv = path.join(runDir, 'missing', 'lintgv');
// Answers --version like lintgv, but its server dies while starting; it counts its starts.
const crashingLintgv = path.join(runDir, 'crashing', 'lintgv');
const crashingStarts = path.join(runDir, 'crashing', 'starts');

function writeCrashingLintgv() {
  fs.mkdirSync(path.dirname(crashingLintgv), { recursive: true });
  const script = [
    '#!/bin/sh',
    'if [ "$1" = --version ]; then echo "lintgv 0.0.0"; exit 0; fi',
    `echo start >> '${crashingStarts}'`,
    // Exit once the client has sent `initialize`, as a lintgv without its server does.
    'head -c 1 > /dev/null',
    'echo "lintgv: the server crashed on purpose" >&2',
    'exit 3',
  ];
  fs.writeFileSync(crashingLintgv, `${script.join('\n')}\n`, { mode: 0o755 });
}

function serverStarts() {
  return fs.existsSync(crashingStarts) ? fs.readFileSync(crashingStarts, 'utf8').split('\n').filter(Boolean).length : 0;
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** Copy the fixture folders and point their settings at the lintgv under test. */
function prepareWorkspace() {
  fs.cpSync(path.join(HERE, 'workspace'), ws, { recursive: true });
  writeJson(path.join(ws, 'tvm', '.vscode', 'settings.json'), { 'lintgv.path': LINTGV });
  // The second folder has its own settings: fix-all on save, and GV902 not reported.
  writeJson(path.join(ws, 'tvm-fix-on-save', '.vscode', 'settings.json'), {
    'lintgv.path': LINTGV,
    'lintgv.fixAll': true,
  });
  writeJson(path.join(ws, 'bad-path', '.vscode', 'settings.json'), { 'lintgv.path': missingLintgv });
  writeCrashingLintgv();
  writeJson(path.join(ws, 'crashing-server', '.vscode', 'settings.json'), { 'lintgv.path': crashingLintgv });
  const workspaceFile = path.join(ws, 'lintgv-e2e.code-workspace');
  writeJson(workspaceFile, { folders: [{ path: 'tvm' }, { path: 'tvm-fix-on-save' }], settings: {} });
  return workspaceFile;
}

const shot = (name) => path.join(OUT_DIR, `${name}.png`);

/** A test body that leaves a screenshot of the workbench behind when it fails. */
function withFailureShot(name, body) {
  return async () => {
    try {
      await body();
    } catch (error) {
      await (current ?? workbench)?.screenshot(shot(`FAILED-${name}`)).catch(() => undefined);
      throw error;
    }
  };
}

let codeServer;
let browser;
let workbench;
// The workbench a test is looking at, when it is not the main window.
let current;

before(async () => {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const workspaceFile = prepareWorkspace();
  codeServer = new CodeServer({ codeServer: CODE_SERVER, runDir });
  codeServer.installExtension(VSIX);
  await codeServer.start();
  browser = await launchBrowser(CHROMIUM);
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  workbench = new Workbench(page);
  await workbench.open(codeServer.urlFor(workspaceFile));
});

after(async () => {
  await browser?.close();
  await codeServer?.stop();
  const log = path.join(runDir, 'code-server.log');
  if (fs.existsSync(log)) {
    fs.copyFileSync(log, path.join(OUT_DIR, 'code-server.log'));
  }
  fs.rmSync(runDir, { recursive: true, force: true });
});

describe('lintgv in VS Code', { timeout: 180_000 }, () => {
  it(
    'shows lintgv findings with their codes in the Problems panel, for Python and C++',
    withFailureShot('problems', async () => {
      await workbench.openFile('lower_functions.cc');
      await workbench.openFile('lift_functions.py');
      await workbench.showProblems();
      const rows = await workbench.waitForProblems('lintgv(GV101)', 2);
      assert.ok(
        rows.every((row) => row.includes('GlobalVar built by hand')),
        rows.join('\n'),
      );
      const all = await workbench.problemRows();
      assert.ok(
        all.some((row) => row.startsWith('lower_functions.cc')),
        all.join('\n'),
      );
      assert.ok(
        all.some((row) => row.startsWith('lift_functions.py')),
        all.join('\n'),
      );
      assert.match(await workbench.statusBarItem('lintgv'), /^lintgv: [1-9]\d*$/);
      assert.ok(await workbench.statusBarItemHasIcon('lintgv', 'warning'));
      await workbench.screenshot(shot('problems'));
    }),
  );

  it(
    'offers the fix on Ctrl+., and applying it rewrites the call to a GlobalVarSupply',
    withFailureShot('quickfix', async () => {
      await workbench.openFile('lift_functions.py');
      await workbench.goTo(8, 14); // on `tvm.ir.GlobalVar(name)`
      const titles = await workbench.openQuickFixes('fresh_global');
      assert.ok(
        titles.some((title) => title.includes('fresh_global')),
        titles.join('\n'),
      );
      await workbench.screenshot(shot('quickfix'));
      await workbench.chooseAction('fresh_global');
      const text = await workbench.waitForEditorText({
        present: '.fresh_global(name, False)',
        absent: 'tvm.ir.GlobalVar(',
      });
      assert.match(text, /from tvm\.ir\.supply import GlobalVarSupply/);
      await workbench.screenshot(shot('quickfix-applied'));
    }),
  );

  it(
    'applies a changed lintgv.ignore at once, without reloading the window',
    withFailureShot('settings-change', async () => {
      await workbench.openFile('lower_functions.cc');
      await workbench.showProblems();
      const row = workbench.problemRow('lintgv(GV101)', '[Ln 8, Col 3]');
      await row.waitFor();
      const settings = path.join(ws, 'tvm', '.vscode', 'settings.json');
      const before = fs.readFileSync(settings, 'utf8');
      writeJson(settings, { ...JSON.parse(before), 'lintgv.ignore': ['GV101'] });
      await row.waitFor({ state: 'detached', timeout: 30_000 });
      fs.writeFileSync(settings, before);
      await row.waitFor({ timeout: 30_000 });
    }),
  );

  it(
    'names a wrong lintgv.path in one error notification, with a button to the setting',
    withFailureShot('bad-path', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
      const window = new Workbench(page);
      current = window;
      try {
        await window.open(codeServer.urlFor(path.join(ws, 'bad-path')));
        await window.openFile('example.py');
        const toast = await window.waitForNotification('could not start the lintgv server');
        const text = await toast.first().innerText();
        assert.ok(text.includes(`Tried lintgv.path (${missingLintgv}): not found`), text);
        assert.deepEqual(await window.notificationTexts(), [text], 'one notification in all');
        assert.ok(await window.statusBarItemHasIcon('lintgv', 'error'), 'the status bar shows the failure');
        await window.screenshot(shot('error'));
        await toast.first().getByRole('button', { name: 'Open Settings' }).click();
        await page.locator('.settings-editor .setting-item-contents', { hasText: 'Path' }).first().waitFor();
        const setting = await page.locator('.settings-editor .setting-item-contents').first().innerText();
        assert.match(setting, /Lintgv: Path/);
        await window.screenshot(shot('error-settings'));
      } finally {
        current = undefined;
        await page.close();
      }
    }),
  );

  it(
    'reports a server that dies at start once, and starts it again only when asked',
    withFailureShot('crash', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
      const window = new Workbench(page);
      current = window;
      try {
        await window.open(codeServer.urlFor(path.join(ws, 'crashing-server')));
        await window.openFile('example.cc');
        const toast = await window.waitForNotification('stopped while starting');
        assert.deepEqual(
          await window.notificationTexts(),
          [await toast.first().innerText()],
          'one notification in all',
        );
        assert.equal(serverStarts(), 1, 'started once, not restarted in a loop');
        await window.screenshot(shot('crash'));
        // A restart the person asks for is made, and fails the same way.
        await toast.first().locator('.codicon-notifications-clear').click();
        await window.runCommand('lintgv: Restart Server');
        await window.waitForNotification('stopped while starting');
        assert.equal(serverStarts(), 2);
      } finally {
        current = undefined;
        await page.close();
      }
    }),
  );
});
