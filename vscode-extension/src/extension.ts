// Entry point: build the controller that runs `lintgv server`, and register the commands.

import * as vscode from 'vscode';

import { Controller } from './controller';
import { fixFile, fixWorkspace, registerFixOnSave } from './fixes';

let controller: Controller | undefined;

async function withClient(action: (client: NonNullable<Controller['runningClient']>) => Promise<void>): Promise<void> {
  const client = controller?.runningClient;
  if (!client) {
    void vscode.window.showWarningMessage('lintgv: the server is not running; see "lintgv: Show Output".');
    return;
  }
  await action(client);
}

/** Apply lintgv's fixes to the active editor's file; say so when that fails. */
function fixActiveFile(unsafe: boolean): Promise<void> {
  return withClient(async (client) => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      return;
    }
    try {
      await fixFile(client, uri, unsafe);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      controller?.output.error(`Fixing ${uri.fsPath} failed: ${reason}`);
      void vscode.window.showErrorMessage(`lintgv: could not fix ${vscode.workspace.asRelativePath(uri)}: ${reason}`);
    }
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('lintgv', { log: true });
  // The server runs in the extension's global storage, which VS Code does not create.
  await vscode.workspace.fs.createDirectory(context.globalStorageUri);
  controller = new Controller(output, context.globalStorageUri.fsPath, context.globalState);
  context.subscriptions.push(
    output,
    controller,
    registerFixOnSave(controller),
    vscode.commands.registerCommand('lintgv.restartServer', () => controller?.restart('asked for')),
    vscode.commands.registerCommand('lintgv.showOutput', () => output.show()),
    vscode.commands.registerCommand('lintgv.resetServerPermissions', () => controller?.resetPermissions()),
    vscode.commands.registerCommand('lintgv.fixCurrentFile', () => fixActiveFile(false)),
    vscode.commands.registerCommand('lintgv.fixCurrentFileUnsafe', () => fixActiveFile(true)),
    vscode.commands.registerCommand('lintgv.fixWorkspace', () =>
      withClient(async (client) => {
        const changed = await fixWorkspace(client);
        void vscode.window.showInformationMessage(
          `lintgv: safe fixes changed ${changed} file${changed === 1 ? '' : 's'}; the Problems panel lists what is left.`,
        );
      }),
    ),
  );
  await controller.start();
}

export function deactivate(): Promise<void> | undefined {
  return controller?.stop();
}
