// Which command starts `lintgv server`: the candidates in order of preference, the first one
// that answers `--version`, and the message when none does. No `vscode` import.

import * as path from 'node:path';

export type CandidateSource = 'lintgv.path' | 'lintgv.interpreter' | 'Python extension' | 'PATH';

/** One way to start the server: `command ...args` (VS Code's client appends `--stdio`). */
export interface ServerCandidate {
  readonly source: CandidateSource;
  /** What a person reads in a message: the setting or origin and the executable. */
  readonly label: string;
  readonly command: string;
  /** The arguments before `server`: empty for an executable, `-m lintgv` for Python. */
  readonly prefixArgs: readonly string[];
  /** The full argument list that starts the server. */
  readonly args: readonly string[];
  /** The folder the command runs in (see `DiscoveryInput.workingFolder`). */
  readonly cwd: string;
}

export interface DiscoveryInput {
  /** The `lintgv.path` setting, already expanded (see `expandPath`). */
  readonly path: string;
  /** The `lintgv.interpreter` setting, already expanded. */
  readonly interpreter: string;
  /** The `lintgv.args` setting: extra arguments for `lintgv server`. */
  readonly serverArgs: readonly string[];
  /** The interpreter selected in the Python extension, when it is installed. */
  readonly pythonExtensionInterpreter: string | undefined;
  /** `lintgv` found on PATH (see `findOnPath`), if any. */
  readonly lintgvOnPath: string | undefined;
  /**
   * The folder `--version` and the server run in: the extension's own storage, never a
   * workspace folder. A process started from the workspace may import from it: Python
   * puts the working folder first on the import path of `python -c` (which is how
   * multiprocessing starts the server's workers) unless given -P.
   */
  readonly workingFolder: string;
}

function executableCandidate(source: CandidateSource, command: string, input: DiscoveryInput): ServerCandidate {
  return {
    source,
    label: `${source} (${command})`,
    command,
    prefixArgs: [],
    args: ['server', ...input.serverArgs],
    cwd: input.workingFolder,
  };
}

function pythonCandidate(source: CandidateSource, python: string, input: DiscoveryInput): ServerCandidate {
  // -P: `python -m` would otherwise put the working directory, the workspace (a tree lintgv
  // must never run code from), first on the import path, so a `lintgv/` folder in it
  // would be imported instead of the installed lintgv. lintgv needs Python 3.11, which has -P.
  const prefixArgs = ['-P', '-m', 'lintgv'];
  return {
    source,
    label: `${source} (${python} -P -m lintgv)`,
    command: python,
    prefixArgs,
    args: [...prefixArgs, 'server', ...input.serverArgs],
    cwd: input.workingFolder,
  };
}

/**
 * List the ways to start the server, best first. An explicit setting is the only candidate:
 * falling back from a broken `lintgv.path` to another lintgv would hide the mistake.
 */
export function serverCandidates(input: DiscoveryInput): ServerCandidate[] {
  if (input.path) {
    return [executableCandidate('lintgv.path', input.path, input)];
  }
  if (input.interpreter) {
    return [pythonCandidate('lintgv.interpreter', input.interpreter, input)];
  }
  const candidates: ServerCandidate[] = [];
  if (input.pythonExtensionInterpreter) {
    candidates.push(pythonCandidate('Python extension', input.pythonExtensionInterpreter, input));
  }
  if (input.lintgvOnPath) {
    candidates.push(executableCandidate('PATH', input.lintgvOnPath, input));
  }
  return candidates;
}

export type ProbeResult =
  { readonly ok: true; readonly version: string } | { readonly ok: false; readonly reason: string };

/** Runs the candidate's `command ...prefixArgs --version` in its `cwd` and says whether lintgv answered. */
export type Probe = (candidate: ServerCandidate) => Promise<ProbeResult>;

export interface Attempt {
  readonly candidate: ServerCandidate;
  readonly reason: string;
}

export type Choice =
  | {
      readonly ok: true;
      readonly candidate: ServerCandidate;
      readonly version: string;
      readonly failed: readonly Attempt[];
    }
  | { readonly ok: false; readonly failed: readonly Attempt[] };

/** Return the first candidate whose probe succeeds, or every attempt's failure. */
export async function chooseServer(candidates: readonly ServerCandidate[], probe: Probe): Promise<Choice> {
  const failed: Attempt[] = [];
  for (const candidate of candidates) {
    const result = await probe(candidate);
    if (result.ok) {
      return { ok: true, candidate, version: result.version, failed };
    }
    failed.push({ candidate, reason: result.reason });
  }
  return { ok: false, failed };
}

/** The one error message shown when no candidate works: what was tried, and what to do. */
export function describeFailure(failed: readonly Attempt[]): string {
  const install =
    'Install it with `pip install "lintgv[lsp]"`, or set lintgv.path to the lintgv executable ' +
    '(or lintgv.interpreter to a Python that has it).';
  if (failed.length === 0) {
    return `lintgv: no lintgv server found: lintgv.path and lintgv.interpreter are empty, no Python interpreter is selected, and lintgv is not on PATH. ${install}`;
  }
  const tried = failed.map((attempt) => `${attempt.candidate.label}: ${attempt.reason}`).join('; ');
  const explicit = failed.find(
    (attempt) => attempt.candidate.source === 'lintgv.path' || attempt.candidate.source === 'lintgv.interpreter',
  );
  const remedy = explicit
    ? `Correct ${explicit.candidate.source}, or clear it to use the selected Python interpreter or lintgv on PATH.`
    : install;
  return `lintgv: could not start the lintgv server. Tried ${tried}. ${remedy}`;
}

/** The setting a person should edit after `failed`: the explicit one that was tried, if any. */
export function settingToFix(failed: readonly Attempt[]): 'lintgv.path' | 'lintgv.interpreter' {
  return failed.some((attempt) => attempt.candidate.source === 'lintgv.interpreter')
    ? 'lintgv.interpreter'
    : 'lintgv.path';
}

export interface PathContext {
  readonly home: string;
  readonly workspaceFolder: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Expand `~`, `${userHome}`, `${workspaceFolder}` and `${env:NAME}` in a path setting, and
 * resolve a relative path against the workspace folder.
 */
export function expandPath(value: string, context: PathContext): string {
  if (!value) {
    return value;
  }
  let expanded = value
    .replace(/\$\{userHome\}/g, context.home)
    .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => context.env[name] ?? '');
  if (context.workspaceFolder !== undefined) {
    expanded = expanded.replace(/\$\{workspaceFolder\}/g, context.workspaceFolder);
  }
  if (expanded === '~' || expanded.startsWith('~/')) {
    expanded = context.home + expanded.slice(1);
  }
  // A bare name such as "python3" is looked up on PATH when it is run; keep it.
  const isBareName = !expanded.includes('/') && !expanded.includes('\\');
  if (!isBareName && !path.isAbsolute(expanded) && context.workspaceFolder !== undefined) {
    expanded = path.join(context.workspaceFolder, expanded);
  }
  return expanded;
}

/**
 * Find an executable on a PATH-style list, as a shell would; on Windows also try the
 * PATHEXT suffixes. `isExecutable` answers for one full path.
 */
export function findOnPath(
  name: string,
  envPath: string | undefined,
  platform: NodeJS.Platform,
  isExecutable: (file: string) => boolean,
  pathExt?: string,
): string | undefined {
  const separator = platform === 'win32' ? ';' : ':';
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  const suffixes = platform === 'win32' ? ['', ...(pathExt ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean)] : [''];
  for (const directory of (envPath ?? '').split(separator)) {
    if (!directory) {
      continue;
    }
    for (const suffix of suffixes) {
      const file = flavour.join(directory, name + suffix);
      if (isExecutable(file)) {
        return file;
      }
    }
  }
  return undefined;
}
