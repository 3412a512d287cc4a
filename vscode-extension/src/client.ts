// Builds the language client for one server command: document selector, the settings the
// server is sent, and the hooks through which the controller handles failures.

import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import { ServerCandidate } from './serverCommand';
import { readSettings, ServerSettings, toServerSettings } from './settings';

export const LANGUAGES = ['python', 'cpp', 'c', 'cuda-cpp'];
const DOCUMENT_SELECTOR = LANGUAGES.map((language) => ({ scheme: 'file', language }));

/** The settings below `lintgv.` for `scope` (a document or folder), as the server reads them. */
export function serverSettingsFor(scope: vscode.Uri | undefined): ServerSettings {
  const section = vscode.workspace.getConfiguration('lintgv', scope);
  return toServerSettings(readSettings((key) => section.get(key)));
}

/**
 * A language client whose own error pop-ups ("couldn't create connection to server", and
 * the like) go to the output channel only: the controller shows one notification of its own.
 */
export class LintgvClient extends LanguageClient {
  constructor(
    serverOptions: ServerOptions,
    clientOptions: LanguageClientOptions,
    private readonly onForcedError: (message: string) => void,
  ) {
    super('lintgv', 'lintgv', serverOptions, clientOptions);
  }

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, showNotification === 'force' ? false : showNotification);
    if (showNotification === 'force') {
      this.onForcedError(message);
    }
  }
}

export interface ClientHooks {
  /** The server's process ended on its own: restart it, or not. */
  readonly onClosed: () => CloseAction;
  /** The client failed in a way it would have announced in a pop-up of its own. */
  readonly onForcedError: (message: string) => void;
}

/** Build (not start) the client that runs `candidate` over stdio. */
export function createClient(
  candidate: ServerCandidate,
  output: vscode.LogOutputChannel,
  hooks: ClientHooks,
): LintgvClient {
  const serverOptions: ServerOptions = {
    command: candidate.command,
    args: [...candidate.args],
    transport: TransportKind.stdio,
    options: { cwd: candidate.cwd },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: serverSettingsFor(undefined),
    initializationFailedHandler: () => false,
    errorHandler: {
      // Write errors on the connection are logged; a broken connection ends in closed().
      error: (_error, _message, count) => ({
        action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      }),
      closed: () => ({ action: hooks.onClosed(), handled: true }),
    },
    middleware: {
      workspace: {
        configuration: (params, token, next) => {
          // The server asks for the `lintgv` section per folder or document; answer in its
          // shape rather than with the raw VS Code settings.
          if (params.items.every((item) => item.section !== 'lintgv')) {
            return next(params, token);
          }
          return params.items.map((item) =>
            item.section === 'lintgv'
              ? serverSettingsFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined)
              : null,
          );
        },
      },
    },
  };
  return new LintgvClient(serverOptions, clientOptions, hooks.onForcedError);
}
