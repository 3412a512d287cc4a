import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { statusView } from '../status';

describe('statusView', () => {
  it('shows a check mark when the server runs and nothing is found', () => {
    const view = statusView('running', 0, '0.1.0');
    assert.equal(view.text, '$(check) lintgv');
    assert.match(view.tooltip, /^lintgv 0\.1\.0: no findings/);
  });

  it('shows the number of findings while running', () => {
    assert.equal(statusView('running', 7, '0.1.0').text, '$(warning) lintgv: 7');
    assert.match(statusView('running', 1, undefined).tooltip, /^lintgv: 1 finding\b/);
    assert.match(statusView('running', 2, undefined).tooltip, /2 findings/);
  });

  it('marks a failed server as an error, and no other state', () => {
    assert.equal(statusView('failed', 0, undefined).isError, true);
    for (const state of ['starting', 'running', 'stopped'] as const) {
      assert.equal(statusView(state, 3, undefined).isError, false, state);
    }
  });

  it('does not show a count while the server is not running', () => {
    for (const state of ['starting', 'stopped', 'failed'] as const) {
      assert.doesNotMatch(statusView(state, 5, undefined).text, /5/, state);
    }
  });
});
