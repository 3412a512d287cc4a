import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
  admitPythonExtensionInterpreter,
  Answer,
  chooseLaunchSettings,
  isInWorkspace,
  LaunchContext,
  LaunchSettings,
} from '../permission';

const USER: LaunchSettings = { path: '', interpreter: '', args: [] };
const FROM_WORKSPACE: LaunchSettings = { path: '/src/tvm/tools/lintgv', interpreter: '', args: [] };

/** A person who answers `answer` (undefined: dismisses) and an in-memory global state. */
function person(answer: Answer | undefined, trusted = true, workspace = 'file:///src/tvm') {
  const asked: string[] = [];
  const logged: string[] = [];
  const memory = new Map<string, Answer>();
  const context: LaunchContext = {
    trusted,
    workspace,
    log: (message) => logged.push(message),
    permissions: {
      recall: (key) => memory.get(key),
      remember: (key, given) => {
        memory.set(key, given);
        return Promise.resolve();
      },
      ask: (subject) => {
        asked.push(subject);
        return Promise.resolve(answer);
      },
    },
  };
  return { context, asked, logged, memory };
}

describe('chooseLaunchSettings', () => {
  it("does not run the workspace's lintgv.path when the person denies it, and uses the user's settings", async () => {
    const { context, asked, logged } = person('deny');
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, context), USER);
    assert.equal(asked.length, 1);
    assert.match(
      asked[0] ?? '',
      /this workspace's settings choose the program lintgv runs: lintgv\.path = "\/src\/tvm\/tools\/lintgv"/,
    );
    assert.match(logged.join('\n'), /Not using the workspace's lintgv\.path/);
  });

  it('does not run a workspace value when the question is dismissed, and asks again next time', async () => {
    const { context, asked, memory } = person(undefined);
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, context), USER);
    assert.equal(memory.size, 0);
    await chooseLaunchSettings(FROM_WORKSPACE, USER, context);
    assert.equal(asked.length, 2);
  });

  it('runs the workspace value once allowed, and asks only once for it', async () => {
    const { context, asked } = person('allow');
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, context), FROM_WORKSPACE);
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, context), FROM_WORKSPACE);
    assert.equal(asked.length, 1);
  });

  it('remembers a denial, and does not ask again', async () => {
    const { context, asked } = person('deny');
    await chooseLaunchSettings(FROM_WORKSPACE, USER, context);
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, context), USER);
    assert.equal(asked.length, 1);
  });

  it('asks again when the workspace changes the value it was allowed', async () => {
    const { context, asked } = person('allow');
    await chooseLaunchSettings(FROM_WORKSPACE, USER, context);
    await chooseLaunchSettings({ ...FROM_WORKSPACE, path: '/src/tvm/other/lintgv' }, USER, context);
    assert.equal(asked.length, 2);
  });

  it('asks again in another workspace', async () => {
    const first = person('allow', true, 'file:///src/tvm');
    await chooseLaunchSettings(FROM_WORKSPACE, USER, first.context);
    const second = person('deny', true, 'file:///src/fork');
    for (const [key, answer] of first.memory) {
      await second.context.permissions.remember(key, answer);
    }
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, second.context), USER);
    assert.equal(second.asked.length, 1);
  });

  it("never asks about nor uses the workspace's values in an untrusted workspace", async () => {
    const { context, asked, logged } = person('allow', false);
    assert.deepEqual(await chooseLaunchSettings(FROM_WORKSPACE, USER, context), USER);
    assert.deepEqual(asked, []);
    assert.match(logged.join('\n'), /not trusted/);
  });

  it('asks about server arguments the workspace adds, such as --tcp', async () => {
    const user: LaunchSettings = { path: '/home/ana/bin/lintgv', interpreter: '', args: [] };
    const effective: LaunchSettings = { ...user, args: ['--tcp', '0.0.0.0:2087'] };
    const { context, asked } = person('deny');
    assert.deepEqual(await chooseLaunchSettings(effective, user, context), user);
    assert.match(asked[0] ?? '', /lintgv\.args = \["--tcp","0\.0\.0\.0:2087"\]/);
    assert.doesNotMatch(asked[0] ?? '', /lintgv\.path/, "the user's own value is not in question");
  });

  it("asks about the workspace's lintgv.interpreter", async () => {
    const effective: LaunchSettings = { ...USER, interpreter: '/src/tvm/.venv/bin/python' };
    const { context, asked } = person('deny');
    assert.deepEqual(await chooseLaunchSettings(effective, USER, context), USER);
    assert.match(asked[0] ?? '', /lintgv\.interpreter = "\/src\/tvm\/\.venv\/bin\/python"/);
  });

  it("uses the user's own settings without a question, in any workspace", async () => {
    const user: LaunchSettings = { path: '', interpreter: '/opt/py/bin/python', args: ['-v'] };
    for (const trusted of [true, false]) {
      const { context, asked, logged } = person('deny', trusted);
      assert.deepEqual(await chooseLaunchSettings(user, user, context), user);
      assert.deepEqual(asked, []);
      assert.deepEqual(logged, []);
    }
  });
});

describe('admitPythonExtensionInterpreter', () => {
  const folders = ['/src/tvm', '/src/docs'];
  const noLinks = (file: string): string => file;

  it('uses no interpreter from the Python extension in an untrusted workspace, even one outside it', async () => {
    const { context, asked, logged } = person('allow', false);
    assert.equal(await admitPythonExtensionInterpreter('/usr/bin/python3', folders, context, noLinks), undefined);
    assert.equal(
      await admitPythonExtensionInterpreter('/src/tvm/.venv/bin/python', folders, context, noLinks),
      undefined,
    );
    assert.deepEqual(asked, []);
    assert.match(logged.join('\n'), /not trusted/);
  });

  it('uses an interpreter outside the workspace without a question', async () => {
    const { context, asked } = person('deny');
    assert.equal(
      await admitPythonExtensionInterpreter('/usr/bin/python3', folders, context, noLinks),
      '/usr/bin/python3',
    );
    assert.deepEqual(asked, []);
  });

  it('asks before running an interpreter in a workspace folder, and skips it when denied', async () => {
    const { context, asked, logged } = person('deny');
    const python = '/src/docs/.venv/bin/python';
    assert.equal(await admitPythonExtensionInterpreter(python, folders, context, noLinks), undefined);
    assert.match(asked[0] ?? '', /\/src\/docs\/\.venv\/bin\/python -P -m lintgv server/);
    assert.match(logged.join('\n'), /lies in the workspace/);
    await admitPythonExtensionInterpreter(python, folders, context, noLinks);
    assert.equal(asked.length, 1, 'the denial is remembered');
  });

  it('runs an interpreter in the workspace once allowed', async () => {
    const { context } = person('allow');
    const python = '/src/tvm/.venv/bin/python';
    assert.equal(await admitPythonExtensionInterpreter(python, folders, context, noLinks), python);
  });

  it('has nothing to admit when the Python extension selected nothing', async () => {
    const { context, asked } = person('allow');
    assert.equal(await admitPythonExtensionInterpreter(undefined, folders, context, noLinks), undefined);
    assert.deepEqual(asked, []);
  });
});

describe('isInWorkspace', { skip: process.platform === 'win32' ? 'POSIX symbolic links' : false }, () => {
  let dir: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lintgv-permission-')));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("counts a virtual environment's python, a link to an interpreter outside, as in the workspace", () => {
    const outside = path.join(dir, 'usr', 'python3');
    const venv = path.join(dir, 'ws', '.venv', 'bin');
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.mkdirSync(venv, { recursive: true });
    fs.writeFileSync(outside, '');
    fs.symlinkSync(outside, path.join(venv, 'python'));
    assert.equal(isInWorkspace(path.join(venv, 'python'), [path.join(dir, 'ws')], fs.realpathSync), true);
    assert.equal(isInWorkspace(outside, [path.join(dir, 'ws')], fs.realpathSync), false);
  });

  it('counts an interpreter whose real path is in the workspace, reached through a link outside it', () => {
    const inside = path.join(dir, 'ws2', 'env', 'python');
    fs.mkdirSync(path.dirname(inside), { recursive: true });
    fs.writeFileSync(inside, '');
    const link = path.join(dir, 'elsewhere-python');
    fs.symlinkSync(inside, link);
    assert.equal(isInWorkspace(link, [path.join(dir, 'ws2')], fs.realpathSync), true);
  });

  it('counts a workspace folder opened through a link, and not a folder that only shares a prefix', () => {
    const real = path.join(dir, 'real-ws');
    fs.mkdirSync(path.join(real, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(real, 'bin', 'python'), '');
    const opened = path.join(dir, 'opened-ws');
    fs.symlinkSync(real, opened);
    assert.equal(isInWorkspace(path.join(real, 'bin', 'python'), [opened], fs.realpathSync), true);
    assert.equal(isInWorkspace(path.join(dir, 'real-ws-2', 'python'), [real], fs.realpathSync), false);
  });
});
