import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  chooseServer,
  DiscoveryInput,
  describeFailure,
  expandPath,
  findOnPath,
  Probe,
  serverCandidates,
  settingToFix,
} from '../serverCommand';

const NOTHING: DiscoveryInput = {
  path: '',
  interpreter: '',
  serverArgs: [],
  pythonExtensionInterpreter: undefined,
  lintgvOnPath: undefined,
  workingFolder: '/home/ana/.config/Code/User/globalStorage/lintgv.lintgv',
};

describe('serverCandidates', () => {
  it('uses lintgv.path alone when it is set, even if other ways exist', () => {
    const candidates = serverCandidates({
      ...NOTHING,
      path: '/venv/bin/lintgv',
      interpreter: '/usr/bin/python3',
      pythonExtensionInterpreter: '/py/bin/python',
      lintgvOnPath: '/usr/bin/lintgv',
    });
    assert.deepEqual(
      candidates.map((c) => [c.source, c.command, c.args]),
      [['lintgv.path', '/venv/bin/lintgv', ['server']]],
    );
  });

  it('runs lintgv.interpreter with -P -m lintgv (nothing imported from the workspace) when lintgv.path is empty', () => {
    const [candidate, ...rest] = serverCandidates({
      ...NOTHING,
      interpreter: '/py/bin/python',
      lintgvOnPath: '/usr/bin/lintgv',
    });
    assert.deepEqual(rest, []);
    assert.equal(candidate?.source, 'lintgv.interpreter');
    assert.equal(candidate?.command, '/py/bin/python');
    assert.deepEqual(candidate?.prefixArgs, ['-P', '-m', 'lintgv']);
    assert.deepEqual(candidate?.args, ['-P', '-m', 'lintgv', 'server']);
  });

  it('tries the Python extension interpreter before lintgv on PATH', () => {
    const candidates = serverCandidates({
      ...NOTHING,
      pythonExtensionInterpreter: '/py/bin/python',
      lintgvOnPath: '/usr/bin/lintgv',
    });
    assert.deepEqual(
      candidates.map((c) => c.source),
      ['Python extension', 'PATH'],
    );
  });

  it('appends lintgv.args after the server subcommand', () => {
    const [byPath] = serverCandidates({ ...NOTHING, path: '/bin/lintgv', serverArgs: ['-v', '--x'] });
    assert.deepEqual(byPath?.args, ['server', '-v', '--x']);
    const [byPython] = serverCandidates({ ...NOTHING, interpreter: 'python3', serverArgs: ['-v'] });
    assert.deepEqual(byPython?.args, ['-P', '-m', 'lintgv', 'server', '-v']);
  });

  it('runs every candidate in the working folder given, never in the workspace', () => {
    const candidates = serverCandidates({
      ...NOTHING,
      pythonExtensionInterpreter: '/src/tvm/.venv/bin/python',
      lintgvOnPath: '/usr/bin/lintgv',
      workingFolder: '/storage/lintgv',
    });
    assert.deepEqual(
      candidates.map((c) => c.cwd),
      ['/storage/lintgv', '/storage/lintgv'],
    );
    const [byPath] = serverCandidates({ ...NOTHING, path: '/bin/lintgv', workingFolder: '/storage/lintgv' });
    assert.equal(byPath?.cwd, '/storage/lintgv');
  });

  it('has no candidate when nothing is configured or found', () => {
    assert.deepEqual(serverCandidates(NOTHING), []);
  });

  it('labels a candidate with its origin and command', () => {
    const [candidate] = serverCandidates({ ...NOTHING, interpreter: '/py/bin/python' });
    assert.equal(candidate?.label, 'lintgv.interpreter (/py/bin/python -P -m lintgv)');
  });
});

describe('chooseServer', () => {
  const candidates = serverCandidates({
    ...NOTHING,
    pythonExtensionInterpreter: '/py/bin/python',
    lintgvOnPath: '/usr/bin/lintgv',
  });

  it('takes the first candidate whose probe succeeds and records the failures before it', async () => {
    const probed: string[] = [];
    const probe: Probe = ({ command }) => {
      probed.push(command);
      return Promise.resolve(
        command === '/usr/bin/lintgv'
          ? { ok: true, version: '0.1.0' }
          : { ok: false, reason: 'No module named lintgv' },
      );
    };
    const choice = await chooseServer(candidates, probe);
    assert.equal(choice.ok, true);
    assert.ok(choice.ok);
    assert.equal(choice.candidate.source, 'PATH');
    assert.equal(choice.version, '0.1.0');
    assert.deepEqual(
      choice.failed.map((a) => a.reason),
      ['No module named lintgv'],
    );
    assert.deepEqual(probed, ['/py/bin/python', '/usr/bin/lintgv']);
  });

  it('probes each candidate in its own working folder', async () => {
    const folders: string[] = [];
    await chooseServer(candidates, ({ cwd }) => {
      folders.push(cwd);
      return Promise.resolve({ ok: false, reason: 'x' });
    });
    assert.deepEqual(folders, [NOTHING.workingFolder, NOTHING.workingFolder]);
  });

  it('stops probing after the first success', async () => {
    const probed: string[] = [];
    await chooseServer(candidates, ({ command }) => {
      probed.push(command);
      return Promise.resolve({ ok: true, version: '1' });
    });
    assert.deepEqual(probed, ['/py/bin/python']);
  });

  it('returns every failure when no candidate works', async () => {
    const choice = await chooseServer(candidates, ({ command }) =>
      Promise.resolve({ ok: false, reason: `${command} broke` }),
    );
    assert.equal(choice.ok, false);
    assert.deepEqual(
      choice.failed.map((a) => a.reason),
      ['/py/bin/python broke', '/usr/bin/lintgv broke'],
    );
  });
});

describe('describeFailure', () => {
  it('names each command tried and why it failed', () => {
    const [candidate] = serverCandidates({ ...NOTHING, path: '/nowhere/lintgv' });
    assert.ok(candidate);
    const message = describeFailure([{ candidate, reason: 'not found' }]);
    assert.match(message, /Tried lintgv\.path \(\/nowhere\/lintgv\): not found\./);
  });

  it('asks to correct an explicit setting that failed, rather than to install lintgv', () => {
    const [candidate] = serverCandidates({ ...NOTHING, interpreter: '/py/bin/python' });
    assert.ok(candidate);
    const message = describeFailure([{ candidate, reason: 'exited with code 1: No module named lintgv' }]);
    assert.match(message, /Correct lintgv\.interpreter, or clear it/);
    assert.doesNotMatch(message, /pip install/);
  });

  it('suggests installing lintgv when only automatic candidates failed', () => {
    const candidates = serverCandidates({
      ...NOTHING,
      pythonExtensionInterpreter: '/py/bin/python',
      lintgvOnPath: '/usr/bin/lintgv',
    });
    const message = describeFailure(candidates.map((candidate) => ({ candidate, reason: 'broken' })));
    assert.match(
      message,
      /Python extension \(\/py\/bin\/python -P -m lintgv\): broken; PATH \(\/usr\/bin\/lintgv\): broken\./,
    );
    assert.match(message, /pip install "lintgv\[lsp\]"/);
  });

  it('says what was looked for when there was nothing to try', () => {
    const message = describeFailure([]);
    assert.match(message, /lintgv\.path and lintgv\.interpreter are empty/);
    assert.match(message, /not on PATH/);
  });
});

describe('settingToFix', () => {
  it('points at lintgv.interpreter when that was the setting tried', () => {
    const [candidate] = serverCandidates({ ...NOTHING, interpreter: 'python3' });
    assert.ok(candidate);
    assert.equal(settingToFix([{ candidate, reason: 'x' }]), 'lintgv.interpreter');
  });

  it('points at lintgv.path otherwise', () => {
    assert.equal(settingToFix([]), 'lintgv.path');
  });
});

describe('expandPath', () => {
  const context = { home: '/home/ana', workspaceFolder: '/src/tvm', env: { VENV: '/opt/venv' } };

  it('expands ~, ${userHome}, ${workspaceFolder} and ${env:NAME}', () => {
    assert.equal(expandPath('~/bin/lintgv', context), '/home/ana/bin/lintgv');
    assert.equal(expandPath('${userHome}/bin/lintgv', context), '/home/ana/bin/lintgv');
    assert.equal(expandPath('${workspaceFolder}/.venv/bin/lintgv', context), '/src/tvm/.venv/bin/lintgv');
    assert.equal(expandPath('${env:VENV}/bin/lintgv', context), '/opt/venv/bin/lintgv');
  });

  it('resolves a relative path against the workspace folder', () => {
    assert.equal(expandPath('.venv/bin/python', context), '/src/tvm/.venv/bin/python');
  });

  it('keeps a bare command name for the PATH lookup when it runs', () => {
    assert.equal(expandPath('python3', context), 'python3');
  });

  it('leaves an empty setting empty', () => {
    assert.equal(expandPath('', context), '');
  });

  it('leaves ${workspaceFolder} alone when no folder is open', () => {
    assert.equal(
      expandPath('${workspaceFolder}/x', { ...context, workspaceFolder: undefined }),
      '${workspaceFolder}/x',
    );
  });
});

describe('findOnPath', () => {
  it('returns the first directory that holds the executable', () => {
    const present = new Set(['/b/lintgv', '/c/lintgv']);
    assert.equal(
      findOnPath('lintgv', '/a:/b:/c', 'linux', (f) => present.has(f)),
      '/b/lintgv',
    );
  });

  it('returns undefined when no directory has it, or PATH is unset', () => {
    assert.equal(
      findOnPath('lintgv', '/a:/b', 'linux', () => false),
      undefined,
    );
    assert.equal(
      findOnPath('lintgv', undefined, 'linux', () => true),
      undefined,
    );
  });

  it('skips empty PATH entries instead of looking in the current directory', () => {
    const looked: string[] = [];
    findOnPath('lintgv', ':/a::', 'linux', (f) => {
      looked.push(f);
      return false;
    });
    assert.deepEqual(looked, ['/a/lintgv']);
  });

  it('tries the PATHEXT suffixes on Windows', () => {
    const found = findOnPath(
      'lintgv',
      'C:\\py\\Scripts;C:\\bin',
      'win32',
      (f) => f === 'C:\\py\\Scripts\\lintgv.EXE',
      '.COM;.EXE',
    );
    assert.equal(found, 'C:\\py\\Scripts\\lintgv.EXE');
  });
});
