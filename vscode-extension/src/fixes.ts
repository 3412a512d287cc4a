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
// The server's command; 'lintgv.fixWorkspace' is this extension's, which calls it.
export const FIX_WORKSPACE_COMMAND = 'lintgv.fixWorkspaceFiles';

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

interface FixWorkspaceResult {
  readonly applied: boolean;
  readonly fixes: number;
  readonly files: readonly string[];
  readonly cancelled: boolean;
}

/**
 * Fix every file of the workspace with the server's `lintgv.fixWorkspaceFiles`: it checks every
 * folder and applies the safe fixes as one workspace edit (all files or none, one undo).
 * The files it changed are saved, unless they had unsaved edits before. One notification
 * shows the server's progress and can cancel it; returns how many files changed.
 */
export async function fixWorkspace(client: LanguageClient): Promise<number> {
  if (!serverCommands(client).includes(FIX_WORKSPACE_COMMAND)) {
    throw new Error(`this lintgv server has no ${FIX_WORKSPACE_COMMAND} command; update lintgv`);
  }
  const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()));
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'lintgv', cancellable: true },
    async (progress, token) => {
      progress.report({ message: 'checking the workspace' });
      const workDoneToken = `lintgv-fix-workspace-${Date.now()}`;
      const listener = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
        if (value.kind !== 'end' && value.message) {
          progress.report({ message: value.message });
        }
      });
      let result: FixWorkspaceResult | undefined;
      try {
        result = (await client.sendRequest(
          ExecuteCommandRequest.type,
          { command: FIX_WORKSPACE_COMMAND, arguments: [{ unsafe: false }], workDoneToken },
          token,
        )) as FixWorkspaceResult | undefined;
      } finally {
        listener.dispose();
      }
      if (!result?.applied) {
        return 0;
      }
      for (const uri of result.files) {
        if (!dirty.has(uri)) {
          const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
          await document.save();
        }
      }
      return result.files.length;
    },
  );
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
