// Smoke test of the built site (dist/): it loads without errors, boots its
// three-machine etcd cluster, and answers `etcdctl member list` in the terminal.
// Run with `make e2e` (builds dist/ first) or `node --test e2e/`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveDir } from './helpers/server.mjs';
import { DIST, launchBrowser, requireDist, screenshot, watchErrors } from './helpers/browser.mjs';

const INPUT = '[data-testid="terminal-input"]';
const OUTPUT = '[data-testid="terminal-output"]';
const TITLE = 'Quorum Playground — etcd membership, on real Raft';

let browser;

before(async () => {
  await requireDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** Opens `url`, runs `etcdctl member list`, checks for errors; returns the page. */
async function memberList(context, url, shot) {
  const page = await context.newPage();
  const errors = watchErrors(page);

  await page.goto(url, { waitUntil: 'load' });
  assert.equal(await page.title(), TITLE);

  const input = page.locator(INPUT);
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.click();
  await input.pressSequentially('etcdctl member list');
  await input.press('Enter');

  const output = page.locator(OUTPUT);
  try {
    await page.locator(OUTPUT, { hasText: 'started' }).waitFor({ timeout: 10_000 });
  } catch (err) {
    const text = await output.textContent().catch(() => '(no terminal output element)');
    await screenshot(page, shot);
    assert.fail(`terminal output never contained "started" within 10 s:\n${text}\n${errors.join('\n')}`);
  }
  await screenshot(page, shot);
  assert.deepEqual(errors, [], 'the page reported errors');
  return page;
}

describe('built site', () => {
  test('boots and answers `etcdctl member list`', { timeout: 90_000 }, async () => {
    const server = await serveDir(DIST);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await memberList(context, server.url, 'home.png');
    } finally {
      await context.close();
      await server.close();
    }
  });

  test('works from a sub-path', { timeout: 90_000 }, async () => {
    const prefix = '/sub/path/';
    const server = await serveDir(DIST, { prefix });
    // The dark theme, for the screenshot.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    try {
      await memberList(context, server.url, 'sub-path.png');
      const outside = server.requests.filter((r) => !r.path.startsWith(prefix));
      assert.deepEqual(outside, [], 'requests escaped the sub-path');
      assert.ok(
        server.requests.some((r) => r.path.endsWith('.wasm') && r.status === 200),
        'the wasm module was served from the sub-path',
      );
    } finally {
      await context.close();
      await server.close();
    }
  });
});
