// Whether lintgv may run a program that the workspace chose. The user's own settings always
// count. lintgv.path, lintgv.interpreter and lintgv.args set by the workspace (a repository's
// .vscode/settings.json, a .code-workspace file), and the Python extension's interpreter when
// it lies in a workspace folder, are used only in a trusted workspace and once the person has
// allowed them for that workspace. No `vscode` import.

import * as path from 'node:path';

/** The settings that choose the program lintgv runs, already expanded (see `expandPath`). */
export interface LaunchSettings {
  readonly path: string;
  readonly interpreter: string;
  readonly args: readonly string[];
}

export type Answer = 'allow' | 'deny';

/** The person's say: answers given before, and the question for a new case. */
export interface Permissions {
  /** The answer remembered for `key`, if any. */
  recall(key: string): Answer | undefined;
  remember(key: string, answer: Answer): Promise<void>;
  /**
   * Ask whether to run what `subject` describes (a sentence without a final full stop);
   * undefined when the question was dismissed.
   */
  ask(subject: string): Promise<Answer | undefined>;
}

export interface LaunchContext {
  readonly trusted: boolean;
  /** Names the workspace in remembered answers: its .code-workspace file, or its folders. */
  readonly workspace: string;
  readonly permissions: Permissions;
  readonly log: (message: string) => void;
}

/** Answer for `key` from memory, else ask and remember; a dismissed question is not remembered. */
async function isAllowed(context: LaunchContext, key: string, subject: string): Promise<boolean> {
  const fullKey = `${context.workspace}\n${key}`;
  const known = context.permissions.recall(fullKey);
  if (known !== undefined) {
    return known === 'allow';
  }
  const answer = await context.permissions.ask(subject);
  if (answer !== undefined) {
    await context.permissions.remember(fullKey, answer);
  }
  return answer === 'allow';
}

/** The launch settings where the workspace's value differs from the user's, as `name = value`. */
function workspaceValues(effective: LaunchSettings, user: LaunchSettings): string[] {
  const values: string[] = [];
  if (effective.path !== user.path) {
    values.push(`lintgv.path = ${JSON.stringify(effective.path)}`);
  }
  if (effective.interpreter !== user.interpreter) {
    values.push(`lintgv.interpreter = ${JSON.stringify(effective.interpreter)}`);
  }
  if (JSON.stringify(effective.args) !== JSON.stringify(user.args)) {
    values.push(`lintgv.args = ${JSON.stringify(effective.args)}`);
  }
  return values;
}

/**
 * The launch settings to use: `effective` (as VS Code resolves them: folder, workspace, then
 * user) when they are the user's own (`user`) or the person allowed the workspace's values;
 * otherwise the user's.
 */
export async function chooseLaunchSettings(
  effective: LaunchSettings,
  user: LaunchSettings,
  context: LaunchContext,
): Promise<LaunchSettings> {
  const values = workspaceValues(effective, user);
  if (values.length === 0) {
    return effective;
  }
  const named = values.join(', ');
  if (!context.trusted) {
    context.log(`Not using the workspace's ${named}: the workspace is not trusted; using your own settings.`);
    return user;
  }
  const subject = `this workspace's settings choose the program lintgv runs: ${named}`;
  if (await isAllowed(context, `settings\n${JSON.stringify(effective)}`, subject)) {
    return effective;
  }
  context.log(`Not using the workspace's ${named}: not allowed for this workspace; using your own settings.`);
  return user;
}

/** Tell whether `file` lies in `folder`, comparing the paths as given. */
function isWithin(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Tell whether `file` lies in one of `folders`, by its path as given or by its real path: a
 * virtual environment's `bin/python` is usually a link to an interpreter outside, but what it
 * runs (its site-packages, lintgv among them) is the workspace's.
 */
export function isInWorkspace(file: string, folders: readonly string[], realpath: (file: string) => string): boolean {
  const real = (name: string): string => {
    try {
      return realpath(name);
    } catch {
      return path.resolve(name);
    }
  };
  const files = [path.resolve(file), real(file)];
  const roots = folders.flatMap((folder) => [path.resolve(folder), real(folder)]);
  return files.some((name) => roots.some((root) => isWithin(name, root)));
}

/**
 * The Python extension's interpreter, if lintgv may run it: never in an untrusted workspace,
 * and one in a workspace folder only once the person allowed it.
 */
export async function admitPythonExtensionInterpreter(
  python: string | undefined,
  folders: readonly string[],
  context: LaunchContext,
  realpath: (file: string) => string,
): Promise<string | undefined> {
  if (python === undefined) {
    return undefined;
  }
  if (!context.trusted) {
    context.log(`Not using the Python extension's interpreter ${python}: the workspace is not trusted.`);
    return undefined;
  }
  if (!isInWorkspace(python, folders, realpath)) {
    return python;
  }
  const subject = `the interpreter selected in the Python extension, ${python}, lies in the workspace; lintgv would run it as "${python} -P -m lintgv server"`;
  if (await isAllowed(context, `python\n${python}`, subject)) {
    return python;
  }
  context.log(`Not using the Python extension's interpreter ${python}: it lies in the workspace and is not allowed.`);
  return undefined;
}
