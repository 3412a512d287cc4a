// What a person does in the VS Code workbench, as playwright steps: open a file, look at the
// Problems panel, press Ctrl+., run a command, save. Selectors are VS Code 1.100's.

const NBSP = /\u00a0/g;

/**
 * Runs in the page (so it must stand alone): reads the findings of the Problems panel (VS
 * Code 1.100's markers view), each with the file row above it. Only rows on screen exist;
 * the fixtures' findings fit. mode 'read' returns them; 'all' tells whether each of `wanted`
 * matches a finding; 'none' whether none does. A match agrees on every key of the wanted one.
 */
function problemsInPage([wanted, mode]) {
  const text = (row, selector) =>
    row
      .querySelector(selector)
      ?.textContent?.replace(/\u00a0/g, ' ')
      .trim();
  const problems = [];
  let file;
  for (const row of document.querySelectorAll('.markers-panel .monaco-list-row')) {
    if (!row.querySelector('.marker-message')) {
      file = text(row, '.label-name');
      continue;
    }
    problems.push({
      file,
      message: text(row, '.marker-message'),
      source: text(row, '.marker-source'),
      code: text(row, '.marker-code'),
      position: text(row, '.marker-line'),
    });
  }
  if (mode === 'read') {
    return problems;
  }
  const found = (want) => problems.some((p) => Object.entries(want).every(([key, value]) => p[key] === value));
  return mode === 'all' ? wanted.every(found) : !wanted.some(found);
}

export class Workbench {
  /** @param {import('playwright-core').Page} page */
  constructor(page) {
    this.page = page;
  }

  async open(url) {
    await this.page.goto(url);
    await this.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await this.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
  }

  /** Open a file by name through Quick Open (Ctrl+P), as a person would. */
  async openFile(name) {
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(name);
    // The picker first lists recent files, then filters: wait until the file is the one chosen.
    await this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
    await this.page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
  }

  /**
   * Open a file shown at the top level of the Explorer with a click: quicker than Quick Open
   * in a window that has just loaded, whose file search is still starting.
   */
  async openFromExplorer(name) {
    await this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first().click();
    await this.page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
    await this.page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor();
  }

  /** Run a command from the Command Palette by its title. */
  async runCommand(title) {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    await this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).waitFor();
    await this.page.keyboard.press('Enter');
  }

  /** Move the cursor of the active editor to a 1-based line and column (Ctrl+G). */
  async goTo(line, column) {
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    // The Go to Line picker is Quick Open with the `:` prefix; fill() replaces the prefix too.
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  }

  /** The text of the active editor (all of it: the fixture files fit on screen). */
  async editorText() {
    const text = await this.page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
    return text.replace(NBSP, ' ');
  }

  /** Wait until the active editor shows `present` and does not show `absent`; return its text. */
  async waitForEditorText({ present = '', absent = undefined }, timeout = 30_000) {
    await this.page.waitForFunction(
      ([present, absent]) => {
        const lines = document.querySelector('.editor-instance .monaco-editor .view-lines');
        const text = (lines?.innerText ?? '').replace(/\u00a0/g, ' ');
        return text.includes(present) && (absent === null || !text.includes(absent));
      },
      [present, absent ?? null],
      { timeout },
    );
    return this.editorText();
  }

  /** Show the Problems panel (Ctrl+Shift+M). */
  async showProblems() {
    await this.page.keyboard.press('Control+Shift+M');
    await this.page.locator('.markers-panel').waitFor();
  }

  /** The findings of the Problems panel: file, message, source, code and position. */
  async problems() {
    return this.page.evaluate(problemsInPage, [[], 'read']);
  }

  /** Wait until the Problems panel shows a finding matching each of `wanted`; return all. */
  async waitForProblems(wanted, timeout = 60_000) {
    await this.page.waitForFunction(problemsInPage, [wanted, 'all'], { timeout, polling: 100 });
    return this.problems();
  }

  /** Wait until no finding in the Problems panel matches any of `unwanted`. */
  async waitForNoProblem(unwanted, timeout = 30_000) {
    await this.page.waitForFunction(problemsInPage, [unwanted, 'none'], { timeout, polling: 100 });
  }

  /** Press Ctrl+. and wait for the action with `title`; returns every offered title. */
  async openQuickFixes(title) {
    await this.page.keyboard.press('Control+.');
    await this.page.locator('.action-widget .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 30_000 });
    return this.page.locator('.action-widget .monaco-list-row.action').allInnerTexts();
  }

  /** Apply the open action widget's entry titled `title`, moving to it with the arrow keys. */
  async chooseAction(title) {
    const focused = this.page.locator('.action-widget .monaco-list-row.focused');
    for (let step = 0; step < 20; step++) {
      if ((await focused.innerText()).includes(title)) {
        await this.page.keyboard.press('Enter');
        await this.page.locator('.action-widget').waitFor({ state: 'hidden' });
        return;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`no action titled ${title}`);
  }

  /** Wait for a notification toast containing `text` and return it. */
  async waitForNotification(text, timeout = 60_000) {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text });
    await toast.first().waitFor({ timeout });
    return toast;
  }

  /** Wait for the modal dialog containing `text` and return it. */
  async waitForDialog(text, timeout = 60_000) {
    const dialog = this.page.locator('.monaco-dialog-box', { hasText: text });
    await dialog.waitFor({ timeout });
    return dialog;
  }

  /** Press the button `name` of `dialog`, and wait until the dialog is gone. */
  async answerDialog(dialog, name) {
    await dialog.getByRole('button', { name, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  /** The text of every notification toast on screen. */
  async notificationTexts() {
    return this.page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  }

  /**
   * Wait for the status-bar item whose whole text is `text` (its icon has none), wearing the
   * codicon `icon` when given, and return the name of its codicon, such as `warning`.
   */
  async waitForStatusBarItem(text, icon = undefined, timeout = 30_000) {
    const exact = new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    const has = icon ? this.page.locator(`.codicon-${icon}`) : undefined;
    const item = this.page.locator('.statusbar-item', { hasText: exact, has }).first();
    await item.waitFor({ timeout });
    const classes = await item.locator('.codicon').first().getAttribute('class');
    return /codicon-([a-z-]+)/.exec(classes ?? '')?.[1];
  }

  /** Save the active editor (Ctrl+S) and wait until its tab `name` is no longer dirty. */
  async save(name) {
    const dirty = this.page.locator('.tabs-container .tab.active.dirty', { hasText: name });
    await dirty.waitFor();
    await this.page.keyboard.press('Control+S');
    await dirty.waitFor({ state: 'detached', timeout: 30_000 });
  }

  async screenshot(file) {
    // Let the last frame paint: Monaco renders on animation frames.
    await this.page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await this.page.screenshot({ path: file, animations: 'disabled' });
  }
}
