// How often a crashed server may be restarted: a few times in a window, then never, so a
// server that dies on start-up does not loop. No `vscode` import.

export class RestartBudget {
  private restarts: number[] = [];

  constructor(
    private readonly maxRestarts = 3,
    private readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Record a restart and return true, or return false when the budget is spent. */
  tryRestart(): boolean {
    const now = this.now();
    this.restarts = this.restarts.filter((time) => now - time < this.windowMs);
    if (this.restarts.length >= this.maxRestarts) {
      return false;
    }
    this.restarts.push(now);
    return true;
  }

  /** Forget past restarts, after a restart that a person asked for. */
  reset(): void {
    this.restarts = [];
  }
}
