// Applying lintgv's fixes: to one file (command), on save (`lintgv.fixAll`), and to every
// file of the workspace (command, with progress).

import * as vscode from 'vscode';
import {
  CodeAction as ProtocolCodeAction,
  CodeActionRequest,
  CodeActionResolveRequest,
  CodeActionTriggerKind,
  ExecuteCommandRequest,
  LanguageClient,
  WorkDoneProgress,
} from 'vscode-languageclient/node';

import { LANGUAGES, serverSettingsFor } from './client';
import { Controller } from './controller';

export const FIX_ALL_KIND = 'source.fixAll.lintgv';
export const FIX_FILE_COMMAND = 'lintgv.fixFile';
export const CHECK_WORKSPACE_COMMAND = 'lintgv.checkWorkspace';

function serverCommands(client: LanguageClient): readonly string[] {
  return client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
}

function isLinted(document: vscode.TextDocument): boolean {
  return document.uri.scheme === 'file' && LANGUAGES.includes(document.languageId);
}

/** Ask the server for the document's fix-all action and return its edits to the document. */
export async function fixAllEdits(
  client: LanguageClient,
  document: vscode.TextDocument,
  token?: vscode.CancellationToken,
): Promise<vscode.TextEdit[]> {
  const c2p = client.code2ProtocolConverter;
  const lastLine = document.lineAt(document.lineCount - 1);
  const actions = await client.sendRequest(
    CodeActionRequest.type,
    {
      textDocument: c2p.asTextDocumentIdentifier(document),
      range: c2p.asRange(new vscode.Range(0, 0, lastLine.range.end.line, lastLine.range.end.character)),
      context: { diagnostics: [], only: [FIX_ALL_KIND], triggerKind: CodeActionTriggerKind.Automatic },
    },
    token,
  );
  const isFixAll = (item: unknown): item is ProtocolCodeAction =>
    typeof item === 'object' &&
    item !== null &&
    'kind' in item &&
    typeof item.kind === 'string' &&
    item.kind.startsWith(FIX_ALL_KIND);
  let action = (actions ?? []).find(isFixAll);
  const provider = client.initializeResult?.capabilities.codeActionProvider;
  if (action && !action.edit && typeof provider === 'object' && provider.resolveProvider) {
    action = await client.sendRequest(CodeActionResolveRequest.type, action, token);
  }
  if (!action?.edit) {
    return [];
  }
  const edit = await client.protocol2CodeConverter.asWorkspaceEdit(action.edit, token);
  return edit?.get(document.uri) ?? [];
}

/**
 * Fix one file: through the server's `lintgv.fixFile` command, else its fix-all action
 * (safe fixes only). With `unsafe`, fixes that may change names or behaviour are applied
 * too, as `lintgv fix --unsafe` does; the edit can be undone like any other.
 */
export async function fixFile(client: LanguageClient, uri: vscode.Uri, unsafe = false): Promise<void> {
  if (serverCommands(client).includes(FIX_FILE_COMMAND)) {
    await client.sendRequest(ExecuteCommandRequest.type, {
      command: FIX_FILE_COMMAND,
      arguments: [uri.toString(), { unsafe }],
    });
    return;
  }
  if (unsafe) {
    throw new Error('this lintgv server has no lintgv.fixFile command, so it cannot apply unsafe fixes');
  }
  const document = await vscode.workspace.openTextDocument(uri);
  const edits = await fixAllEdits(client, document);
  if (edits.length > 0) {
    const edit = new vscode.WorkspaceEdit();
    edit.set(uri, edits);
    await vscode.workspace.applyEdit(edit);
  }
}

/**
 * Check the whole workspace with the server's `lintgv.checkWorkspace`, then fix every file
 * with a finding and save the files this changed (unless they had unsaved edits before).
 * One notification shows the progress of both steps; returns how many files changed.
 */
export async function fixWorkspace(client: LanguageClient): Promise<number> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'lintgv', cancellable: true },
    async (progress, token) => {
      progress.report({ message: 'checking the workspace' });
      if (serverCommands(client).includes(CHECK_WORKSPACE_COMMAND)) {
        await checkWorkspace(client, (message) => {
          progress.report({ message: `checking the workspace: ${message}` });
        });
      }
      const uris = urisWithFindings(client);
      let changed = 0;
      for (const [index, uri] of uris.entries()) {
        if (token.isCancellationRequested) {
          break;
        }
        progress.report({
          message: `fixing ${vscode.workspace.asRelativePath(uri)} (${index + 1}/${uris.length})`,
          increment: 100 / uris.length,
        });
        if (await fixAndSave(client, uri)) {
          changed += 1;
        }
      }
      return changed;
    },
  );
}

/** Run `lintgv.checkWorkspace`, passing the server's progress messages to `report`. */
async function checkWorkspace(client: LanguageClient, report: (message: string) => void): Promise<void> {
  const workDoneToken = `lintgv-check-workspace-${Date.now()}`;
  const listener = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
    if (value.kind !== 'end' && value.message) {
      report(value.message);
    }
  });
  try {
    await client.sendRequest(ExecuteCommandRequest.type, {
      command: CHECK_WORKSPACE_COMMAND,
      arguments: [],
      workDoneToken,
    });
  } finally {
    listener.dispose();
  }
}

function urisWithFindings(client: LanguageClient): vscode.Uri[] {
  const uris: vscode.Uri[] = [];
  client.diagnostics?.forEach((uri, diagnostics) => {
    if (diagnostics.length > 0) {
      uris.push(uri);
    }
  });
  return uris;
}

/** Fix one file; save it if the fixes changed it and it had no unsaved edits before. */
async function fixAndSave(client: LanguageClient, uri: vscode.Uri): Promise<boolean> {
  const document = await vscode.workspace.openTextDocument(uri);
  const wasDirty = document.isDirty;
  const before = document.version;
  await fixFile(client, uri);
  if (document.version === before) {
    return false;
  }
  if (!wasDirty) {
    await document.save();
  }
  return true;
}

/** Apply the safe fixes before a linted document is saved, when `lintgv.fixAll` is on. */
export function registerFixOnSave(controller: Controller): vscode.Disposable {
  return vscode.workspace.onWillSaveTextDocument((event) => {
    const client = controller.runningClient;
    if (!client || !isLinted(event.document) || event.reason === vscode.TextDocumentSaveReason.AfterDelay) {
      return;
    }
    // A server that handles willSaveWaitUntil itself gets the request from the client.
    const sync = client.initializeResult?.capabilities.textDocumentSync;
    if (typeof sync === 'object' && sync.willSaveWaitUntil) {
      return;
    }
    if (!serverSettingsFor(event.document.uri).fixAll) {
      return;
    }
    event.waitUntil(
      fixAllEdits(client, event.document).catch((error: unknown) => {
        controller.output.warn(`Fix all on save failed for ${event.document.uri.fsPath}: ${String(error)}`);
        return [];
      }),
    );
  });
}
