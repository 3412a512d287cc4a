// probeVersion runs real processes: small shell scripts written to a temporary folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { isExecutableFile, probeVersion } from '../probe';

let dir: string;

function script(name: string, body: string, mode = 0o755): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode });
  return file;
}

describe('probeVersion', { skip: process.platform === 'win32' ? 'uses POSIX shell scripts' : false }, () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lintgv-probe-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('accepts a command that prints "lintgv VERSION" and passes --version last', async () => {
    const lintgv = script('lintgv', 'echo "$*" > "$0.args"; echo "lintgv 0.1.0"');
    assert.deepEqual(await probeVersion(lintgv, [], dir), { ok: true, version: '0.1.0' });
    assert.equal(fs.readFileSync(`${lintgv}.args`, 'utf8').trim(), '--version');
  });

  it('runs an interpreter with its prefix arguments before --version', async () => {
    const python = script('python', 'echo "$*" > "$0.args"; echo "lintgv 2.0"');
    assert.deepEqual(await probeVersion(python, ['-m', 'lintgv'], dir), { ok: true, version: '2.0' });
    assert.equal(fs.readFileSync(`${python}.args`, 'utf8').trim(), '-m lintgv --version');
  });

  it('runs the command in the folder it is given, not in the current one', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'storage-'));
    const lintgv = script('lintgv-pwd', 'pwd > "$0.cwd"; echo "lintgv 0.1.0"');
    assert.deepEqual(await probeVersion(lintgv, [], folder), { ok: true, version: '0.1.0' });
    assert.equal(fs.readFileSync(`${lintgv}.cwd`, 'utf8').trim(), fs.realpathSync(folder));
  });

  it('reports a missing file as not found', async () => {
    assert.deepEqual(await probeVersion(path.join(dir, 'absent'), [], dir), { ok: false, reason: 'not found' });
  });

  it('reports a file without the execute bit as not executable', async () => {
    const file = script('plain', 'echo "lintgv 0.1.0"', 0o644);
    assert.deepEqual(await probeVersion(file, [], dir), { ok: false, reason: 'not executable' });
  });

  it('reports the exit code and the last line of stderr of a failing command', async () => {
    const python = script('python-without-lintgv', 'echo "Traceback" >&2; echo "No module named lintgv" >&2; exit 1');
    assert.deepEqual(await probeVersion(python, ['-m', 'lintgv'], dir), {
      ok: false,
      reason: 'exited with code 1: No module named lintgv',
    });
  });

  it('rejects a program that answers but is not lintgv', async () => {
    const other = script('other', 'echo "ruff 0.6.0"');
    assert.deepEqual(await probeVersion(other, [], dir), {
      ok: false,
      reason: 'is not lintgv (--version printed "ruff 0.6.0")',
    });
  });

  it('gives up on a command that does not answer in time', async () => {
    const slow = script('slow', 'exec sleep 5');
    assert.deepEqual(await probeVersion(slow, [], dir, 200), {
      ok: false,
      reason: 'no answer to --version within 0.2 s',
    });
  });
});

describe('isExecutableFile', { skip: process.platform === 'win32' ? 'POSIX permissions' : false }, () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lintgv-exec-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is true for an executable file only', () => {
    assert.equal(isExecutableFile(script('x', 'true')), true);
    assert.equal(isExecutableFile(script('y', 'true', 0o644)), false);
    assert.equal(isExecutableFile(dir), false, 'a directory');
    assert.equal(isExecutableFile(path.join(dir, 'missing')), false);
  });
});
