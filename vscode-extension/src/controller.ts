// Owns the language client: finds the server, starts and restarts it, keeps the status bar
// current and forwards setting changes.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { CloseAction, DidChangeConfigurationNotification, LanguageClient } from 'vscode-languageclient/node';

import { createClient, LintgvClient, serverSettingsFor } from './client';
import { isExecutableFile, probeVersion } from './probe';
import {
  admitPythonExtensionInterpreter,
  Answer,
  chooseLaunchSettings,
  LaunchContext,
  LaunchSettings,
} from './permission';
import { onInterpreterChange, selectedInterpreter } from './pythonInterpreter';
import { RestartBudget } from './restartBudget';
import {
  Attempt,
  chooseServer,
  describeFailure,
  expandPath,
  findOnPath,
  ServerCandidate,
  serverCandidates,
  settingToFix,
} from './serverCommand';
import { ClientSettings, changeEffect, readSettings, settingsEditorCommand } from './settings';
import { ServerState, statusView } from './status';

/** Restarts allowed after crashes within 3 minutes. */
const RESTART_LIMIT = 3;

/** The global-state key of the answers about programs the workspace chose (see permission.ts). */
const PERMISSIONS_KEY = 'lintgv.serverPermissions';

/** Name the open workspace: its .code-workspace file when saved, else its folders. */
function workspaceName(): string {
  const file = vscode.workspace.workspaceFile;
  if (file && file.scheme !== 'untitled') {
    return file.toString();
  }
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString()).join('\n');
}

function settingFor(candidate: ServerCandidate): 'lintgv.path' | 'lintgv.interpreter' {
  return settingToFix([{ candidate, reason: '' }]);
}

export class Controller implements vscode.Disposable {
  private client: LintgvClient | undefined;
  private candidate: ServerCandidate | undefined;
  private version: string | undefined;
  private state: ServerState = 'stopped';
  private readonly budget = new RestartBudget(RESTART_LIMIT, 3 * 60 * 1000);
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** Serialises start and stop, so commands and setting changes cannot interleave them. */
  private queue: Promise<void> = Promise.resolve();

  /**
   * @param workingFolder where the server runs: a folder of the extension's own, outside
   *   the workspace (see `DiscoveryInput.workingFolder`)
   * @param globalState where the answers about programs the workspace chose are kept: global,
   *   so that no workspace can set them for itself
   */
  constructor(
    readonly output: vscode.LogOutputChannel,
    private readonly workingFolder: string,
    private readonly globalState: vscode.Memento,
  ) {
    this.status = vscode.window.createStatusBarItem('lintgv.status', vscode.StatusBarAlignment.Left, 0);
    this.status.name = 'lintgv';
    this.status.command = 'lintgv.showOutput';
    this.disposables.push(
      this.status,
      vscode.workspace.onDidChangeConfiguration((event) => this.onConfigurationChange(event)),
      vscode.languages.onDidChangeDiagnostics(() => this.render()),
      // The workspace's lintgv.path, interpreter and args, and the Python extension's
      // interpreter, count only in a trusted workspace.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.restart('the workspace is now trusted')),
    );
    void onInterpreterChange(() => {
      if (this.candidate?.source === 'Python extension' || this.candidate === undefined) {
        void this.restart('the selected Python interpreter changed');
      }
    }).then((disposable) => disposable && this.disposables.push(disposable));
    this.render();
    this.status.show();
  }

  /** The running client, or undefined while the server is not running. */
  get runningClient(): LanguageClient | undefined {
    return this.state === 'running' ? this.client : undefined;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.startNow());
  }

  /** Stop the server (if running) and start it again with fresh settings. */
  restart(reason: string): Promise<void> {
    return this.enqueue(async () => {
      this.output.info(`Restarting the server: ${reason}`);
      this.budget.reset();
      await this.stopNow();
      await this.startNow();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.stopNow());
  }

  /** Forget every answer about programs a workspace chose, and start the server afresh. */
  async resetPermissions(): Promise<void> {
    await this.globalState.update(PERMISSIONS_KEY, undefined);
    await this.restart('the answers about programs the workspace chose were forgotten');
  }

  dispose(): void {
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task, task);
    return this.queue;
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.render();
  }

  private render(): void {
    let findings = 0;
    this.client?.diagnostics?.forEach((_uri, diagnostics) => {
      findings += diagnostics.length;
    });
    const view = statusView(this.state, findings, this.version);
    this.status.text = view.text;
    this.status.tooltip = view.tooltip;
    this.status.backgroundColor = view.isError ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  private async findServer(): Promise<
    { candidate: ServerCandidate; version: string } | { failed: readonly Attempt[] }
  > {
    // One server serves the window; in a multi-root workspace the first folder's settings
    // (then the workspace's, then the user's) say how to start it.
    const folders = vscode.workspace.workspaceFolders ?? [];
    const firstFolder = folders[0]?.uri;
    const section = vscode.workspace.getConfiguration('lintgv', firstFolder);
    const context = { home: os.homedir(), workspaceFolder: firstFolder?.fsPath, env: process.env };
    const expand = (settings: ClientSettings): LaunchSettings => ({
      path: expandPath(settings.path, context),
      interpreter: expandPath(settings.interpreter, context),
      args: settings.args,
    });
    const launchContext = this.launchContext();
    const launch = await chooseLaunchSettings(
      expand(readSettings((key) => section.get(key))),
      expand(readSettings((key) => section.inspect(key)?.globalValue)),
      launchContext,
    );
    this.output.info(
      `Looking for the server: lintgv.path=${JSON.stringify(launch.path)}, lintgv.interpreter=${JSON.stringify(launch.interpreter)}`,
    );
    const candidates = serverCandidates({
      path: launch.path,
      interpreter: launch.interpreter,
      serverArgs: launch.args,
      pythonExtensionInterpreter:
        launch.path || launch.interpreter
          ? undefined
          : await admitPythonExtensionInterpreter(
              await selectedInterpreter(firstFolder),
              folders.map((folder) => folder.uri.fsPath),
              launchContext,
              fs.realpathSync,
            ),
      lintgvOnPath: findOnPath('lintgv', process.env.PATH, process.platform, isExecutableFile, process.env.PATHEXT),
      workingFolder: this.workingFolder,
    });
    const choice = await chooseServer(candidates, (candidate) =>
      probeVersion(candidate.command, candidate.prefixArgs, candidate.cwd),
    );
    for (const attempt of choice.failed) {
      this.output.warn(`Not using ${attempt.candidate.label}: ${attempt.reason}`);
    }
    return choice.ok ? { candidate: choice.candidate, version: choice.version } : { failed: choice.failed };
  }

  /** The workspace's trust, and the person's answers kept in the extension's global state. */
  private launchContext(): LaunchContext {
    const answers = (): Record<string, unknown> => this.globalState.get<Record<string, unknown>>(PERMISSIONS_KEY) ?? {};
    return {
      trusted: vscode.workspace.isTrusted,
      workspace: workspaceName(),
      log: (message) => this.output.warn(message),
      permissions: {
        recall: (key) => {
          const answer = answers()[key];
          return answer === 'allow' || answer === 'deny' ? answer : undefined;
        },
        remember: (key, answer) =>
          Promise.resolve(this.globalState.update(PERMISSIONS_KEY, { ...answers(), [key]: answer })),
        ask: async (subject) => {
          const allow = 'Allow';
          const deny = 'Deny';
          const choice = await vscode.window.showWarningMessage(
            `lintgv: ${subject}. Allow lintgv to run it?`,
            {
              modal: true,
              detail:
                'Allow only a program you trust: it runs with your rights. On Deny, lintgv does without it (your own settings, then lintgv on PATH). The answer is remembered for this workspace and this program; "lintgv: Reset Workspace Server Permissions" forgets it.',
            },
            allow,
            deny,
          );
          const byButton: Record<string, Answer> = { [allow]: 'allow', [deny]: 'deny' };
          return choice === undefined ? undefined : byButton[choice];
        },
      },
    };
  }

  private async startNow(): Promise<void> {
    this.setState('starting');
    const found = await this.findServer();
    if ('failed' in found) {
      this.fail(describeFailure(found.failed), settingToFix(found.failed));
      return;
    }
    this.candidate = found.candidate;
    this.version = found.version;
    this.output.info(
      `Starting ${found.candidate.command} ${found.candidate.args.join(' ')} (lintgv ${found.version}, from ${found.candidate.source})`,
    );
    const client = this.createClient(found.candidate);
    this.client = client;
    let failure: string | undefined;
    try {
      await client.start();
    } catch (error) {
      failure = error instanceof Error ? error.message : 'unknown error';
    }
    // When the server exits during `initialize`, start() can resolve without a running
    // client (the close handler drops the promise it would reject), so check the state.
    if (failure !== undefined || !client.isRunning()) {
      this.output.error(`The server did not start: ${failure ?? 'it exited'}`);
      this.fail(
        `lintgv: the server (${found.candidate.label}) stopped while starting; its output says why.`,
        settingFor(found.candidate),
      );
      return;
    }
    this.setState('running');
  }

  private async stopNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(5000);
      } catch (error) {
        this.output.warn(`The server did not stop cleanly: ${String(error)}`);
      }
      await client.dispose().catch(() => undefined);
    }
    this.setState('stopped');
  }

  /** Show the one error notification for a server that cannot run. */
  private fail(message: string, setting: 'lintgv.path' | 'lintgv.interpreter'): void {
    this.output.error(message);
    if (this.state === 'failed') {
      return; // Already reported; a restart (asked for, or by a setting) starts afresh.
    }
    this.setState('failed');
    const openSettings = 'Open Settings';
    const showOutput = 'Show Output';
    void vscode.window.showErrorMessage(message, openSettings, showOutput).then((choice) => {
      if (choice === openSettings) {
        this.openSetting(setting);
      } else if (choice === showOutput) {
        this.output.show();
      }
    });
  }

  /** Open the Settings editor on `setting`, on the tab where its value is set. */
  private openSetting(setting: 'lintgv.path' | 'lintgv.interpreter'): void {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const origins = vscode.workspace.getConfiguration('lintgv', folder).inspect(setting.slice('lintgv.'.length));
    void vscode.commands.executeCommand(settingsEditorCommand(origins), { query: setting });
  }

  private createClient(candidate: ServerCandidate): LintgvClient {
    return createClient(candidate, this.output, {
      onClosed: () => this.onServerClosed(candidate),
      onForcedError: (message) => {
        // While starting, startNow reports the failure; later (a restart after a crash
        // failed), nothing else would.
        if (this.state === 'running') {
          this.fail(
            `lintgv: the server stopped and could not be started again (${message}); its output says why.`,
            settingFor(candidate),
          );
        }
      },
    });
  }

  private onServerClosed(candidate: ServerCandidate): CloseAction {
    if (this.state !== 'running') {
      // Stopped on purpose, or failed while starting (reported by startNow).
      return CloseAction.DoNotRestart;
    }
    if (this.budget.tryRestart()) {
      this.output.warn('The server stopped unexpectedly; restarting it.');
      return CloseAction.Restart;
    }
    this.fail(
      `lintgv: the server (${candidate.label}) keeps stopping: it was restarted ${RESTART_LIMIT} times in 3 minutes and will not be again; its output says why. Run "lintgv: Restart Server" after fixing it.`,
      settingFor(candidate),
    );
    return CloseAction.DoNotRestart;
  }

  private onConfigurationChange(event: vscode.ConfigurationChangeEvent): void {
    const effect = changeEffect((setting) => event.affectsConfiguration(setting));
    if (effect === 'restart') {
      void this.restart('the server settings changed');
    } else if (effect === 'notify' && this.runningClient) {
      void this.runningClient
        .sendNotification(DidChangeConfigurationNotification.type, {
          settings: { lintgv: serverSettingsFor(undefined) },
        })
        .catch((error: unknown) => this.output.warn(`Could not send the new settings: ${String(error)}`));
    }
    this.render();
  }
}
