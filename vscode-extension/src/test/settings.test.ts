import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  changeEffect,
  ClientSettings,
  DEFAULT_SETTINGS,
  readSettings,
  settingsEditorCommand,
  toServerSettings,
} from '../settings';

function reader(values: Partial<Record<keyof ClientSettings, unknown>>) {
  return (key: keyof ClientSettings): unknown => values[key];
}

describe('readSettings', () => {
  it('returns the defaults when nothing is set', () => {
    assert.deepEqual(readSettings(reader({})), DEFAULT_SETTINGS);
  });

  it('keeps well-typed values and trims strings and list items', () => {
    const settings = readSettings(
      reader({ path: '  /opt/lintgv ', select: [' GV1 ', 'GV3'], tvmVersion: ' 0.16 ', fixAll: true, enable: false }),
    );
    assert.equal(settings.path, '/opt/lintgv');
    assert.deepEqual(settings.select, ['GV1', 'GV3']);
    assert.equal(settings.tvmVersion, '0.16');
    assert.equal(settings.fixAll, true);
    assert.equal(settings.enable, false);
  });

  it('replaces values of the wrong type by the defaults', () => {
    const settings = readSettings(reader({ enable: 'no', args: '-v', select: 'GV1', severity: ['GV1'], fixAll: 1 }));
    assert.equal(settings.enable, true);
    assert.deepEqual(settings.args, []);
    assert.deepEqual(settings.select, []);
    assert.deepEqual(settings.severity, {});
    assert.equal(settings.fixAll, false);
  });

  it('drops list items that are not strings or are blank', () => {
    assert.deepEqual(readSettings(reader({ ignore: ['GV101', 3, '', '  ', null, 'GV2'] })).ignore, ['GV101', 'GV2']);
  });

  it('keeps only known severities in the severity map', () => {
    const settings = readSettings(
      reader({ severity: { GV1: 'error', GV2: 'fatal', GV3: 'info', GV4: 'hint', ' ': 'info' } }),
    );
    assert.deepEqual(settings.severity, { GV1: 'error', GV3: 'info' });
  });
});

describe('toServerSettings', () => {
  it('sends null for settings left empty, so the configuration file decides', () => {
    assert.deepEqual(toServerSettings(DEFAULT_SETTINGS), {
      enable: true,
      select: null,
      extendSelect: null,
      ignore: null,
      tvmVersion: null,
      severity: {},
      fixAll: false,
      indexWorkspace: true,
    });
  });

  it('passes the values that are set, and nothing about how the server is started', () => {
    const server = toServerSettings({
      ...DEFAULT_SETTINGS,
      path: '/opt/lintgv',
      args: ['-v'],
      select: ['GV1'],
      extendSelect: ['GV3'],
      ignore: ['GV102'],
      tvmVersion: '0.16',
      severity: { GV101: 'error' },
      fixAll: true,
      indexWorkspace: false,
    });
    assert.deepEqual(server, {
      enable: true,
      select: ['GV1'],
      extendSelect: ['GV3'],
      ignore: ['GV102'],
      tvmVersion: '0.16',
      severity: { GV101: 'error' },
      fixAll: true,
      indexWorkspace: false,
    });
    assert.equal('path' in server, false);
  });

  it('copies lists, so later edits of the result do not reach the settings', () => {
    const settings: ClientSettings = { ...DEFAULT_SETTINGS, select: ['GV1'] };
    toServerSettings(settings).select?.push('GV2');
    assert.deepEqual(settings.select, ['GV1']);
  });
});

describe('changeEffect', () => {
  const only = (changed: string) => (setting: string) => setting === changed;

  for (const setting of ['lintgv.path', 'lintgv.interpreter', 'lintgv.args', 'lintgv.indexWorkspace']) {
    it(`restarts the server when ${setting} changes`, () => {
      assert.equal(changeEffect(only(setting)), 'restart');
    });
  }

  for (const setting of ['lintgv.select', 'lintgv.ignore', 'lintgv.tvmVersion', 'lintgv.fixAll', 'lintgv.enable']) {
    it(`notifies the running server when ${setting} changes`, () => {
      assert.equal(changeEffect(only(setting)), 'notify');
    });
  }

  it('restarts when a start-up setting changes together with another one', () => {
    assert.equal(
      changeEffect((s) => s === 'lintgv.select' || s === 'lintgv.path'),
      'restart',
    );
  });

  it("does nothing for other extensions' settings", () => {
    assert.equal(changeEffect(only('python.defaultInterpreterPath')), 'none');
  });
});

describe('settingsEditorCommand', () => {
  it('opens the workspace tab when the workspace or a folder sets the value', () => {
    assert.equal(settingsEditorCommand({ workspaceValue: '/x' }), 'workbench.action.openWorkspaceSettings');
    assert.equal(settingsEditorCommand({ workspaceFolderValue: '/x' }), 'workbench.action.openWorkspaceSettings');
  });

  it('opens the user tab otherwise', () => {
    assert.equal(settingsEditorCommand({}), 'workbench.action.openSettings');
    assert.equal(settingsEditorCommand(undefined), 'workbench.action.openSettings');
  });
});
