// package.json is the other half of settings.ts: what VS Code shows and stores must be what
// the code reads.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { DEFAULT_SETTINGS, RESTART_SETTINGS, SERVER_SETTINGS } from '../settings';

interface Manifest {
  engines: { vscode: string };
  license: string;
  icon: string;
  categories: string[];
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: boolean | 'limited'; restrictedConfigurations?: string[] } };
  devDependencies: Record<string, string>;
  contributes: {
    configuration: { properties: Record<string, { default: unknown; scope?: string }> };
    commands: { command: string; title: string; category: string }[];
  };
}

// The tests run from out/test/; package.json is two folders up.
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const properties = manifest.contributes.configuration.properties;

function minorOf(range: string): number {
  const match = /^[~^]?1\.(\d+)\./.exec(range);
  assert.ok(match?.[1], `not a 1.x version range: ${range}`);
  return Number(match[1]);
}

describe('package.json', () => {
  it('has what the marketplace shows: icon, categories, licence, repository, changelog', () => {
    const root = path.join(__dirname, '..', '..');
    assert.ok(fs.existsSync(path.join(root, manifest.icon)), manifest.icon);
    assert.ok(fs.existsSync(path.join(root, 'LICENSE')));
    assert.ok(fs.existsSync(path.join(root, 'CHANGELOG.md')));
    assert.ok(manifest.categories.includes('Linters'));
    assert.equal(manifest.license, 'Apache-2.0');
    for (const address of [manifest.repository.url, manifest.homepage, manifest.bugs.url]) {
      assert.match(address, /^https:\/\/github\.com\/lintgv\/lintgv/);
    }
  });

  for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
    it(`contributes lintgv.${key} with the default the code assumes`, () => {
      const property = properties[`lintgv.${key}`];
      assert.ok(property, `lintgv.${key} is not contributed`);
      assert.deepEqual(property.default, value);
    });
  }

  it('contributes every setting that restarts or reaches the server, and lintgv.trace.server', () => {
    for (const setting of [...RESTART_SETTINGS, ...SERVER_SETTINGS, 'lintgv.trace.server']) {
      assert.ok(properties[setting], setting);
    }
  });

  it('lets each workspace folder set the settings the server reads per document', () => {
    for (const setting of SERVER_SETTINGS) {
      assert.equal(properties[setting]?.scope, 'resource', setting);
    }
  });

  it('keeps the settings that choose the program lintgv runs out of an untrusted workspace', () => {
    const { supported, restrictedConfigurations } = manifest.capabilities.untrustedWorkspaces;
    assert.equal(supported, 'limited');
    assert.deepEqual([...(restrictedConfigurations ?? [])].sort(), [
      'lintgv.args',
      'lintgv.interpreter',
      'lintgv.path',
    ]);
  });

  it('asks for VS Code 1.100 at most, and types no newer than that', () => {
    const engine = minorOf(manifest.engines.vscode);
    assert.ok(engine <= 100, manifest.engines.vscode);
    const types = manifest.devDependencies['@types/vscode'];
    assert.ok(types);
    assert.ok(minorOf(types) <= engine, `@types/vscode ${types} is newer than engines.vscode`);
  });

  it('contributes the commands extension.ts registers, under the lintgv category', () => {
    const commands = manifest.contributes.commands;
    const source = fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'extension.ts'), 'utf8');
    const registered = [...source.matchAll(/registerCommand\('([^']+)'/g)].map((match) => match[1]);
    assert.deepEqual(commands.map((c) => c.command).sort(), registered.sort());
    assert.equal(registered.length, 6);
    assert.ok(commands.every((c) => c.category === 'lintgv' && c.title));
  });

  it('activates on Python and C++ files', () => {
    assert.ok(manifest.activationEvents.includes('onLanguage:python'));
    assert.ok(manifest.activationEvents.includes('onLanguage:cpp'));
  });
});
