// The interpreter selected in the Python extension (ms-python.python), when it is installed.

import * as vscode from 'vscode';

/** The part of the Python extension's API this extension uses. */
interface PythonEnvironments {
  getActiveEnvironmentPath(resource?: vscode.Uri): { readonly path: string } | undefined;
  readonly onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
}

interface PythonExtensionApi {
  readonly environments?: PythonEnvironments;
}

async function environments(): Promise<PythonEnvironments | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    return api?.environments;
  } catch {
    return undefined;
  }
}

/** Return the selected interpreter's path for `resource`, or undefined. */
export async function selectedInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const api = await environments();
  const selected = api?.getActiveEnvironmentPath(resource)?.path;
  return selected ? selected : undefined;
}

/** Call `listener` when the selected interpreter changes; undefined without the extension. */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  const api = await environments();
  return api?.onDidChangeActiveEnvironmentPath?.(() => listener());
}
