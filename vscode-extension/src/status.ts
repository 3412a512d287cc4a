// What the status-bar item says for each server state. No `vscode` import.

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  /** Whether the item wears the status bar's error colour. */
  readonly isError: boolean;
}

function findingsPhrase(count: number): string {
  return count === 1 ? '1 finding' : `${count} findings`;
}

/** Describe the server's `state` and the number of findings it has reported. */
export function statusView(state: ServerState, findings: number, version: string | undefined): StatusView {
  const server = version ? `lintgv ${version}` : 'lintgv';
  switch (state) {
    case 'starting':
      return { text: '$(sync~spin) lintgv', tooltip: `${server}: starting the server`, isError: false };
    case 'stopped':
      return {
        text: '$(circle-slash) lintgv',
        tooltip: `${server}: server stopped; click for its output`,
        isError: false,
      };
    case 'failed':
      return {
        text: '$(error) lintgv',
        tooltip: `${server}: the server could not start; click for its output`,
        isError: true,
      };
    case 'running':
      return findings === 0
        ? { text: '$(check) lintgv', tooltip: `${server}: no findings`, isError: false }
        : {
            text: `$(warning) lintgv: ${findings}`,
            tooltip: `${server}: ${findingsPhrase(findings)}; see the Problems panel`,
            isError: false,
          };
  }
}
