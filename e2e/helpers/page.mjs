// Page-level helpers for the e2e suite: open the built site, drive the clock,
// type into the terminal, read its text, run the native headless runner for
// comparison, tell the page it is hidden, and record the clock's changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUT, ROOT, screenshot, watchErrors } from './browser.mjs';

export const INPUT = '[data-testid="terminal-input"]';
export const OUTPUT = '[data-testid="terminal-output"]';

/** Opens `url` and waits for the terminal; returns { page, errors }. */
export async function open(context, url) {
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url, { waitUntil: 'load' });
  await page.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
  return { page, errors };
}

/**
 * Opens `url` in a fresh context, runs `fn(page)`, then checks the page reported
 * no errors (those `ignore` accepts aside). On a failure it leaves a screenshot
 * and the terminal's text as e2e/out/NAME.png and NAME.txt.
 */
export async function withPage(browser, url, fn, { viewport = { width: 1440, height: 1000 }, name = 'failure', ignore = () => false } = {}) {
  const context = await browser.newContext({ viewport });
  let page;
  try {
    const opened = await open(context, url);
    page = opened.page;
    await fn(page);
    assert.deepEqual(opened.errors.filter((e) => !ignore(e)), [], 'the page reported errors');
  } catch (err) {
    if (page) {
      await screenshot(page, `${name}.png`).catch(() => {});
      const text = await terminalText(page).catch(() => '(no terminal)');
      await mkdir(OUT, { recursive: true });
      await writeFile(join(OUT, `${name}.txt`), text);
    }
    throw err;
  } finally {
    await context.close();
  }
}

/** Pauses the page's clock (a no-op when it is already paused). */
export async function pause(page) {
  const button = page.locator('[data-testid="play-pause"]');
  if ((await button.getAttribute('aria-pressed')) === 'true') await button.click();
  await page.locator('[data-testid="play-pause"][aria-pressed="false"]').waitFor();
}

/**
 * A top-bar control by test id, unfolded first where the bar folds it behind
 * "Settings" (a phone, a frame): returns its locator.
 */
export async function control(page, testid) {
  const el = page.locator(`[data-testid="${testid}"]`);
  const menu = page.locator('[data-testid="controls-menu"]');
  if (!(await el.isVisible()) && (await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') {
    await menu.click();
  }
  return el;
}

/** Sets the speed field and presses Enter. */
export async function setSpeed(page, text) {
  const speed = await control(page, 'speed');
  await speed.fill(text);
  await speed.press('Enter');
}

/** Types one line into the terminal and presses Enter. */
export async function type(page, line) {
  const input = page.locator(INPUT);
  await input.fill(line);
  await input.press('Enter');
}

/** The terminal's lines as text, as "Copy" would give them (pending and queued lines aside). */
export async function terminalText(page) {
  return page.evaluate((sel) => {
    const out = document.querySelector(sel);
    return [...out.children]
      .filter((d) => !d.classList.contains('pending') && !d.classList.contains('queued'))
      .map((d) => `${d.textContent}\n`)
      .join('');
  }, OUTPUT);
}

/** Waits until the terminal's text contains `text`. */
export async function waitForOutput(page, text, timeout = 15_000) {
  await page.locator(OUTPUT, { hasText: text }).waitFor({ timeout });
}

/** The simulated seconds since the world began, from the `t+mm:ss.s` display. */
export async function elapsedSeconds(page) {
  return parseElapsed(await page.locator('[data-testid="elapsed"]').textContent());
}

/** Simulated seconds from the `t+mm:ss.s` display's text. */
export function parseElapsed(t) {
  const m = /t\+(\d+):(\d+)\.(\d)/.exec(t ?? '');
  assert.ok(m, `elapsed display unreadable: ${t}`);
  return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 10;
}

/** The lines a person types for a script: no comments, no blank lines, continuations as typed. */
export function typedLines(script) {
  return script.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

/** The native headless runner's transcript of a script (built by `make test-native`). */
export function runnerTranscript(scriptPath, seed = 1) {
  const r = spawnSync(
    'cargo',
    ['run', '--quiet', '--profile', 'release-test', '--bin', 'quorum-playground', '--', 'run', scriptPath, '--seed', String(seed)],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  assert.equal(r.status, 0, `the runner failed: ${r.stderr}`);
  return r.stdout;
}

/** The first line where two texts differ, for a readable failure. */
export function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return `line ${i + 1}:\n  page:   ${JSON.stringify(x[i])}\n  runner: ${JSON.stringify(y[i])}`;
  }
  return 'no difference';
}

/**
 * Tells the page it is hidden (or shown again) as a browser tells a background
 * tab: `document.hidden` and `visibilityState` change and `visibilitychange`
 * fires. Headless Chromium keeps every page visible (no CDP call, window state
 * or background tab changes that), so this is as hidden as it gets there; the
 * page's animation frames go on, which a real hidden tab would stop as well.
 */
export async function emulateHidden(page, hidden) {
  await page.evaluate((hidden) => {
    if (hidden) {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    } else {
      delete document.hidden;
      delete document.visibilityState;
    }
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/** Starts recording each change of the `t+mm:ss.s` display with the page's time of it. */
export async function recordElapsed(page) {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="elapsed"]');
    window.__elapsedChanges = [];
    window.__elapsedObserver?.disconnect();
    window.__elapsedObserver = new MutationObserver(() =>
      window.__elapsedChanges.push([performance.now(), el.textContent]),
    );
    window.__elapsedObserver.observe(el, { subtree: true, childList: true, characterData: true });
  });
}

/** The changes recorded since `recordElapsed`: [page ms, simulated seconds] pairs. */
export async function recordedElapsed(page) {
  const changes = await page.evaluate(() => window.__elapsedChanges ?? []);
  return changes.map(([t, text]) => [t, parseElapsed(text)]);
}
