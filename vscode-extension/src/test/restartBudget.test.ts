import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { RestartBudget } from '../restartBudget';

describe('RestartBudget', () => {
  it('allows maxRestarts restarts within the window, then refuses', () => {
    let now = 0;
    const budget = new RestartBudget(3, 1000, () => now);
    assert.deepEqual([budget.tryRestart(), budget.tryRestart(), budget.tryRestart()], [true, true, true]);
    now = 999;
    assert.equal(budget.tryRestart(), false);
  });

  it('allows a restart again once an earlier one has left the window', () => {
    let now = 0;
    const budget = new RestartBudget(2, 1000, () => now);
    budget.tryRestart();
    now = 500;
    budget.tryRestart();
    now = 1000;
    assert.equal(budget.tryRestart(), true, 'the restart at 0 is out of the window');
    assert.equal(budget.tryRestart(), false, 'the ones at 500 and 1000 are still in it');
  });

  it('refused attempts do not count as restarts', () => {
    let now = 0;
    const budget = new RestartBudget(1, 1000, () => now);
    budget.tryRestart();
    now = 600;
    assert.equal(budget.tryRestart(), false);
    now = 1000;
    assert.equal(budget.tryRestart(), true);
  });

  it('starts afresh after reset', () => {
    const budget = new RestartBudget(1, 1000, () => 0);
    budget.tryRestart();
    budget.reset();
    assert.equal(budget.tryRestart(), true);
  });
});
