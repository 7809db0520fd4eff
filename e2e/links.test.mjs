// Cutting a link by clicking it on the map: the link's data-state follows, the terminal
// shows the `net` command the button stands for, and healing puts it back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveDir } from './helpers/server.mjs';
import { DIST, launchBrowser, requireDist, watchErrors } from './helpers/browser.mjs';

let browser;

before(async () => {
  await requireDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

test('clicking a link on the map cuts and heals the link and types its command', { timeout: 90_000 }, async () => {
  const server = await serveDir(DIST);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(server.url, { waitUntil: 'load' });
    const link = page.locator('[data-testid="link-node01-node02"]');
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await link.getAttribute('data-state'), 'up');

    await link.click();
    await page.locator('[data-testid="link-node01-node02"][data-state="cut"]').waitFor({ timeout: 5_000 });
    await page
      .locator('[data-testid="terminal-output"]', { hasText: 'net cut node01 node02' })
      .waitFor({ timeout: 5_000 });

    await link.click();
    await page.locator('[data-testid="link-node01-node02"][data-state="up"]').waitFor({ timeout: 5_000 });
    await page
      .locator('[data-testid="terminal-output"]', { hasText: 'net heal node01 node02' })
      .waitFor({ timeout: 5_000 });
    assert.deepEqual(errors, [], 'the page reported errors');
  } finally {
    await context.close();
    await server.close();
  }
});
