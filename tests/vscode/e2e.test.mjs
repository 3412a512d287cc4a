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
  // The second folder has its own settings: fix-all on save.
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

/** A test body given `mark(step)`, which reports the time since the test began. */
function timed(body) {
  return async (t) => {
    const start = Date.now();
    await body((step) => t.diagnostic(`${step}: ${Date.now() - start} ms`));
  };
}

/** A test body in the main window that leaves a screenshot of it behind when it fails. */
function withFailureShot(name, body) {
  return async (t) => {
    try {
      await timed(body)(t);
    } catch (error) {
      await workbench?.screenshot(shot(`FAILED-${name}`)).catch(() => undefined);
      throw error;
    }
  };
}

let codeServer;
let browser;
let workbench;

/**
 * Run `body` in a second browser window on the fixture folder `folder`, then close it; a
 * failure leaves a screenshot of that window behind.
 */
async function inWindow(folder, name, body) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  const window = new Workbench(page);
  try {
    await window.open(codeServer.urlFor(path.join(ws, folder)));
    await body(window);
  } catch (error) {
    await window.screenshot(shot(`FAILED-${name}-window`)).catch(() => undefined);
    throw error;
  } finally {
    await page.close();
  }
}

before(async () => {
  const start = Date.now();
  // Set-up times, as comments in the test output.
  const mark = (step) => console.log(`set-up, ${step}: ${Date.now() - start} ms`);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const workspaceFile = prepareWorkspace();
  codeServer = new CodeServer({ codeServer: CODE_SERVER, runDir });
  codeServer.installExtension(VSIX);
  mark('extension installed');
  await codeServer.start();
  mark('code-server serving');
  browser = await launchBrowser(CHROMIUM);
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  workbench = new Workbench(page);
  await workbench.open(codeServer.urlFor(workspaceFile));
  mark('workbench loaded');
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

const GV101 = { source: 'lintgv', code: 'GV101' };
const PY_SITE = { ...GV101, file: 'lift_functions.py', position: '[Ln 8, Col 10]' };
const CC_SITE = { ...GV101, file: 'lower_functions.cc', position: '[Ln 8, Col 3]' };
const SAVE_SITE = { ...GV101, file: 'partition.py', position: '[Ln 8, Col 10]' };
const UNUSED_SITE = { source: 'lintgv', code: 'GV902', file: 'partition.py' };

// The question lintgv asks before running a program the workspace's settings name.
const WORKSPACE_PROGRAM = "this workspace's settings choose the program lintgv runs";

describe('lintgv in VS Code', { timeout: 300_000 }, () => {
  it(
    "asks before running the lintgv.path of the workspace's settings, and starts the server once allowed",
    withFailureShot('permission', async () => {
      await workbench.openFile('lower_functions.cc');
      const dialog = await workbench.waitForDialog(WORKSPACE_PROGRAM);
      const text = await dialog.innerText();
      assert.ok(text.includes(`lintgv.path = ${JSON.stringify(LINTGV)}`), text);
      await workbench.screenshot(shot('permission'));
      await workbench.answerDialog(dialog, 'Allow');
      await workbench.showProblems();
      await workbench.waitForProblems([CC_SITE]);
    }),
  );

  it(
    'shows lintgv findings with their codes in the Problems panel, for Python and C++',
    withFailureShot('problems', async () => {
      await workbench.openFile('lower_functions.cc');
      await workbench.openFile('lift_functions.py');
      await workbench.showProblems();
      const problems = await workbench.waitForProblems([PY_SITE, CC_SITE]);
      assert.equal(problems.length, 2, JSON.stringify(problems));
      for (const problem of problems) {
        assert.match(problem.message, /^GlobalVar built by hand; take it from a GlobalVarSupply/);
      }
      await workbench.waitForStatusBarItem('lintgv: 2', 'warning');
      await workbench.screenshot(shot('problems'));
    }),
  );

  it(
    'explains the rule on hover, offers the fix on Ctrl+., and applying it rewrites the call to a GlobalVarSupply',
    withFailureShot('quickfix', async () => {
      await workbench.openFile('lift_functions.py');
      await workbench.goTo(8, 14); // inside `tvm.ir.GlobalVar(name)`
      // The hover (Ctrl+K Ctrl+I) shows the rule's explanation from the server.
      await workbench.page.keyboard.press('Control+K');
      await workbench.page.keyboard.press('Control+I');
      const hover = workbench.page.locator('.monaco-hover', { hasText: 'direct-global-var' });
      await hover.first().waitFor({ timeout: 30_000 });
      await workbench.screenshot(shot('hover'));
      await workbench.page.keyboard.press('Escape');
      await hover.first().waitFor({ state: 'hidden' });
      const titles = await workbench.openQuickFixes('fresh_global');
      assert.ok(
        titles.some((title) => title.includes('Ignore GV101 on this line')),
        titles.join('\n'),
      );
      await workbench.screenshot(shot('quickfix'));
      await workbench.chooseAction('fresh_global');
      const text = await workbench.waitForEditorText({
        present: 'gv = GlobalVarSupply(mod).fresh_global(name, False)',
        absent: 'tvm.ir.GlobalVar(',
      });
      assert.match(text, /^from tvm\.ir\.supply import GlobalVarSupply$/m);
      await workbench.waitForNoProblem([{ file: 'lift_functions.py' }]);
      await workbench.waitForProblems([CC_SITE]);
      await workbench.screenshot(shot('quickfix-applied'));
    }),
  );

  it(
    "applies a folder's changed lintgv.ignore at once, to that folder only, without reloading the window",
    withFailureShot('settings-change', async () => {
      await workbench.openFile('partition.py');
      await workbench.openFile('lower_functions.cc');
      await workbench.showProblems();
      await workbench.waitForProblems([CC_SITE, SAVE_SITE]);
      const settings = path.join(ws, 'tvm', '.vscode', 'settings.json');
      const before = fs.readFileSync(settings, 'utf8');
      writeJson(settings, { ...JSON.parse(before), 'lintgv.ignore': ['GV101'] });
      await workbench.waitForNoProblem([CC_SITE]);
      // The other folder of the workspace keeps its own settings.
      await workbench.waitForProblems([SAVE_SITE]);
      await workbench.screenshot(shot('settings-change'));
      fs.writeFileSync(settings, before);
      await workbench.waitForProblems([CC_SITE]);
    }),
  );

  it(
    'with lintgv.fixAll a save applies the safe fixes only (an unused suppression goes); "Fix This File, Unsafe Fixes Too" rewrites the rest',
    withFailureShot('fix-file', async () => {
      const file = path.join(ws, 'tvm-fix-on-save', 'python', 'partition.py');
      await workbench.openFile('partition.py');
      await workbench.showProblems();
      await workbench.waitForProblems([SAVE_SITE, UNUSED_SITE]);
      // Removing the unused suppression (GV902) is a safe fix, so fix-all on save applies
      // it; GV101's rewrite may change names, so the call stays as it is.
      await workbench.goTo(10, 1);
      await workbench.page.keyboard.press('End');
      await workbench.page.keyboard.type('  # saved');
      await workbench.save('partition.py');
      let saved = fs.readFileSync(file, 'utf8');
      assert.match(saved, /^ {4}return gv {2}# saved$/m);
      assert.match(saved, /^ {4}mod\[gv\] = func$/m);
      assert.match(saved, /^ {4}gv = tvm\.ir\.GlobalVar\(name\)$/m);
      await workbench.waitForProblems([SAVE_SITE]);
      await workbench.waitForNoProblem([UNUSED_SITE]);
      await workbench.screenshot(shot('fix-on-save'));
      // The whole-file fix through the server's lintgv.fixFile command, unsafe fixes included.
      await workbench.runCommand('lintgv: Fix This File, Unsafe Fixes Too');
      await workbench.waitForEditorText({
        present: 'gv = GlobalVarSupply(mod).fresh_global(name, False)',
        absent: 'tvm.ir.GlobalVar(',
      });
      await workbench.waitForNoProblem([{ file: 'partition.py' }]);
      await workbench.screenshot(shot('fix-file'));
      await workbench.save('partition.py');
      saved = fs.readFileSync(file, 'utf8');
      assert.match(saved, /^from tvm\.ir\.supply import GlobalVarSupply$/m);
      assert.match(saved, /^ {4}gv = GlobalVarSupply\(mod\)\.fresh_global\(name, False\)$/m);
    }),
  );

  it(
    '"Fix All Files in the Workspace" applies the safe fixes of every folder as one edit, saves the files it changed and says how many',
    withFailureShot('fix-workspace', async () => {
      const cc = path.join(ws, 'tvm', 'src', 'relay', 'backend', 'lower_functions.cc');
      const names = path.join(ws, 'tvm', 'python', 'tvm', 'relay', 'transform', 'names.py');
      const before = fs.readFileSync(cc, 'utf8');
      await workbench.runCommand('lintgv: Fix All Files in the Workspace');
      await workbench.waitForNotification('lintgv: safe fixes changed 1 file;');
      // The progress notification goes away once the work is done.
      await workbench.page
        .locator('.notifications-toasts .notification-toast', { hasText: 'checking the workspace' })
        .waitFor({ state: 'detached', timeout: 30_000 });
      await workbench.screenshot(shot('fix-workspace'));
      // A file that was not open: its unused suppression (a safe fix) is gone, and saved.
      assert.equal(fs.readFileSync(names, 'utf8'), '"""Names the lifted functions start with."""\n\nPREFIX = "lifted"\n');
      // GV101's rewrite is unsafe: the file keeps its finding and its text.
      assert.equal(fs.readFileSync(cc, 'utf8'), before);
      await workbench.waitForProblems([CC_SITE]);
    }),
  );

  it(
    'names a wrong lintgv.path in one error notification, with a button to the setting',
    timed((mark) =>
      inWindow('bad-path', 'bad-path', async (window) => {
        mark('window open');
        await window.openFromExplorer('example.py');
        mark('file open');
        // Another workspace: the answer given in the first one does not count here.
        await window.answerDialog(await window.waitForDialog(WORKSPACE_PROGRAM), 'Allow');
        const toast = await window.waitForNotification('could not start the lintgv server');
        mark('notification shown');
        const text = await toast.first().innerText();
        assert.ok(text.includes(`Tried lintgv.path (${missingLintgv}): not found`), text);
        assert.deepEqual(await window.notificationTexts(), [text], 'one notification in all');
        await window.waitForStatusBarItem('lintgv', 'error'); // the status bar shows the failure
        await window.screenshot(shot('error'));
        await toast.first().getByRole('button', { name: 'Open Settings' }).click();
        // The Settings editor opens on the Workspace tab, where the wrong value is.
        await window.page
          .locator('.settings-editor .settings-tabs-widget .action-label.checked', { hasText: 'Workspace' })
          .waitFor();
        await window.page.waitForFunction(
          (value) =>
            [...document.querySelectorAll('.settings-editor .setting-item-contents input')].some(
              (input) => input.value === value,
            ),
          missingLintgv,
        );
        await window.screenshot(shot('error-settings'));
      }),
    ),
  );

  it(
    'reports a server that dies at start once, and starts it again only when asked',
    timed((mark) =>
      inWindow('crashing-server', 'crash', async (window) => {
        mark('window open');
        await window.openFromExplorer('example.cc');
        mark('file open');
        await window.answerDialog(await window.waitForDialog(WORKSPACE_PROGRAM), 'Allow');
        const toast = await window.waitForNotification('stopped while starting');
        mark('notification shown');
        assert.deepEqual(
          await window.notificationTexts(),
          [await toast.first().innerText()],
          'one notification in all',
        );
        assert.equal(serverStarts(), 1, 'started once, not restarted in a loop');
        await window.screenshot(shot('crash'));
        // A restart the person asks for is made, and fails the same way.
        await toast.first().locator('.codicon-notifications-clear').click();
        await toast.first().waitFor({ state: 'detached' });
        // The answer is remembered: the restart asks nothing.
        await window.runCommand('lintgv: Restart Server');
        await window.waitForNotification('stopped while starting');
        assert.equal(await window.page.locator('.monaco-dialog-box').count(), 0);
        assert.equal(serverStarts(), 2);
      }),
    ),
  );
});
