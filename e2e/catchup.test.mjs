// A learner's catch-up on the learner panel (lesson 005 step 4: a 20 MB
// snapshot behind a 10 mbit NIC): under etcd's bar, a thin bar and a line with
// the snapshot's bytes sent, what is left and the time left, which appears
// once the page has watched the rate for a second; the line fits its panel at
// 1440×900, 1280×720 and 390×844 (screenshots in e2e/out/catchup-*.png).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite } from './helpers/site.mjs';
import { OUT } from './helpers/browser.mjs';
import { pause, withPage } from './helpers/page.mjs';

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

describe('the catch-up line', () => {
  for (const viewport of VIEWPORTS) {
    test(`a snapshot's bytes and the time left, at ${viewport.width}×${viewport.height}`, { timeout: 180_000 }, async () => {
      await withPage(browser, `${server.url}?lesson=005-snapshot-catch-up&step=4`, async (page) => {
        await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 4 of 5' }).waitFor({ timeout: 15_000 });
        await page.locator('[data-testid="lesson-choice-0"]').click();
        await page.locator('[data-testid="lesson-run"]').click();
        const line = page.locator('[data-testid="catchup-bytes"]', { hasText: ' sent' });
        await line.waitFor({ timeout: 120_000 });
        assert.match(await line.textContent(), /^snapshot: [\d.]+[kmg]?b of 20mb sent · /);
        const eta = page.locator('[data-testid="catchup-eta"]', { hasText: /about \d+ s left/ });
        await eta.waitFor({ timeout: 60_000 });
        await pause(page);
        const bar = page.locator('[data-testid="catchup-transfer"] [role="progressbar"]');
        const now = Number(await bar.getAttribute('aria-valuenow'));
        assert.ok(now > 0 && now < 100, `the bytes bar is between 0 and 100: ${now}`);
        assert.equal(await page.locator('[data-testid="lost-writes"]').count(), 0, 'no write was lost: node01 kept its keys');
        // the line stays inside its panel
        const panel = await page.locator('.quorum-panel').boundingBox();
        const box = await line.boundingBox();
        assert.ok(box.x >= panel.x - 1 && box.x + box.width <= panel.x + panel.width + 1, `${JSON.stringify(box)} inside ${JSON.stringify(panel)}`);
        await line.scrollIntoViewIfNeeded();
        await mkdir(OUT, { recursive: true });
        await page.screenshot({ path: join(OUT, `catchup-${viewport.width}.png`) });
      }, { viewport, name: `catchup-failure-${viewport.width}` });
    });
  }
});
