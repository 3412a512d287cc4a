// The extension's settings: read (with validation) from a getter, and mapped to the settings
// object the server expects. No `vscode` import, so node's test runner can cover it.

export type Severity = 'error' | 'warning' | 'info';

const SEVERITIES: readonly string[] = ['error', 'warning', 'info'];

/** Everything under `lintgv.` that this extension contributes (but `trace.server`). */
export interface ClientSettings {
  readonly enable: boolean;
  readonly path: string;
  readonly interpreter: string;
  readonly args: readonly string[];
  readonly select: readonly string[];
  readonly extendSelect: readonly string[];
  readonly ignore: readonly string[];
  readonly tvmVersion: string;
  readonly severity: Readonly<Record<string, Severity>>;
  readonly fixAll: boolean;
  readonly indexWorkspace: boolean;
}

/**
 * The `lintgv` settings section as the server reads it, in `initializationOptions`, in
 * `workspace/didChangeConfiguration` and in answers to `workspace/configuration`.
 * `null` means "not set here: use the project's configuration file".
 */
export interface ServerSettings {
  enable: boolean;
  select: string[] | null;
  extendSelect: string[] | null;
  ignore: string[] | null;
  tvmVersion: string | null;
  severity: Record<string, Severity>;
  fixAll: boolean;
  indexWorkspace: boolean;
}

export const DEFAULT_SETTINGS: ClientSettings = {
  enable: true,
  path: '',
  interpreter: '',
  args: [],
  select: [],
  extendSelect: [],
  ignore: [],
  tvmVersion: '',
  severity: {},
  fixAll: false,
  indexWorkspace: true,
};

/** The settings that choose how the server is started: changing one restarts it. */
export const RESTART_SETTINGS: readonly string[] = [
  'lintgv.path',
  'lintgv.interpreter',
  'lintgv.args',
  // Read by the server once, when it starts.
  'lintgv.indexWorkspace',
];

/** The settings the running server is told about through `workspace/didChangeConfiguration`. */
export const SERVER_SETTINGS: readonly string[] = [
  'lintgv.enable',
  'lintgv.select',
  'lintgv.extendSelect',
  'lintgv.ignore',
  'lintgv.tvmVersion',
  'lintgv.severity',
  'lintgv.fixAll',
];

/** Reads one key below `lintgv.` (such as `select`); `undefined` when unset. */
export type SettingGetter = (key: keyof ClientSettings) => unknown;

function asBoolean(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function asTrimmedString(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function asStringList(value: unknown): string[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function asSeverityMap(value: unknown): Record<string, Severity> {
  const result: Record<string, Severity> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return result;
  }
  for (const [code, severity] of Object.entries(value)) {
    if (typeof severity === 'string' && SEVERITIES.includes(severity) && code.trim()) {
      result[code.trim()] = severity as Severity;
    }
  }
  return result;
}

/** Read the settings, replacing each value of the wrong type by its default. */
export function readSettings(get: SettingGetter): ClientSettings {
  return {
    enable: asBoolean(get('enable'), DEFAULT_SETTINGS.enable),
    path: asTrimmedString(get('path')),
    interpreter: asTrimmedString(get('interpreter')),
    args: asStringList(get('args')),
    select: asStringList(get('select')),
    extendSelect: asStringList(get('extendSelect')),
    ignore: asStringList(get('ignore')),
    tvmVersion: asTrimmedString(get('tvmVersion')),
    severity: asSeverityMap(get('severity')),
    fixAll: asBoolean(get('fixAll'), DEFAULT_SETTINGS.fixAll),
    indexWorkspace: asBoolean(get('indexWorkspace'), DEFAULT_SETTINGS.indexWorkspace),
  };
}

function listOrNull(list: readonly string[]): string[] | null {
  return list.length > 0 ? [...list] : null;
}

/** Map the client's settings to the server's: empty lists and strings become `null`. */
export function toServerSettings(settings: ClientSettings): ServerSettings {
  return {
    enable: settings.enable,
    select: listOrNull(settings.select),
    extendSelect: listOrNull(settings.extendSelect),
    ignore: listOrNull(settings.ignore),
    tvmVersion: settings.tvmVersion || null,
    severity: { ...settings.severity },
    fixAll: settings.fixAll,
    indexWorkspace: settings.indexWorkspace,
  };
}

/** What a configuration change calls for, given which settings it `affects`. */
export function changeEffect(affects: (setting: string) => boolean): 'restart' | 'notify' | 'none' {
  if (RESTART_SETTINGS.some(affects)) {
    return 'restart';
  }
  return SERVER_SETTINGS.some(affects) ? 'notify' : 'none';
}

/** Where a setting has a value: the parts of VS Code's `inspect` result this needs. */
export interface SettingOrigins {
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * The command that opens the Settings editor on the tab where a setting's value comes from:
 * the workspace tab (a single folder's `.vscode/settings.json` or the `.code-workspace`
 * file) when the workspace sets it, else the user tab.
 */
export function settingsEditorCommand(
  origins: SettingOrigins | undefined,
): 'workbench.action.openWorkspaceSettings' | 'workbench.action.openSettings' {
  const inWorkspace = origins?.workspaceValue !== undefined || origins?.workspaceFolderValue !== undefined;
  return inWorkspace ? 'workbench.action.openWorkspaceSettings' : 'workbench.action.openSettings';
}
