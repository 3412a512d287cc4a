// Ask a would-be server command for `--version`, to tell a working lintgv from a wrong path
// before the language client starts it. No `vscode` import.

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';

import type { ProbeResult } from './serverCommand';

const VERSION_LINE = /^lintgv (\S+)/m;

interface ExecError extends Error {
  code?: string | number | null;
  killed?: boolean;
  signal?: NodeJS.Signals | null;
}

function lastLine(text: string): string {
  return text.trim().split(/\r?\n/).pop()?.trim() ?? '';
}

/** Describe why `command` could not be run, in words a person can act on. */
export function describeExecError(error: ExecError, stderr: string, timeoutMs: number): string {
  if (error.code === 'ENOENT') {
    return 'not found';
  }
  if (error.code === 'EACCES') {
    return 'not executable';
  }
  if (error.killed || error.signal === 'SIGTERM') {
    return `no answer to --version within ${timeoutMs / 1000} s`;
  }
  const detail = lastLine(stderr);
  const exit = typeof error.code === 'number' ? `exited with code ${error.code}` : error.message;
  return detail ? `${exit}: ${detail}` : exit;
}

/** Run `command ...prefixArgs --version` in the folder `cwd` and check that lintgv answered. */
export function probeVersion(
  command: string,
  prefixArgs: readonly string[],
  cwd: string,
  timeoutMs = 20000,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...prefixArgs, '--version'],
      { cwd, timeout: timeoutMs, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error) {
          resolve({ ok: false, reason: describeExecError(error, stderr, timeoutMs) });
          return;
        }
        const match = VERSION_LINE.exec(stdout);
        if (!match?.[1]) {
          const printed = lastLine(stdout) || lastLine(stderr) || 'nothing';
          resolve({ ok: false, reason: `is not lintgv (--version printed "${printed}")` });
          return;
        }
        resolve({ ok: true, version: match[1] });
      },
    );
  });
}

/** Tell whether `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
