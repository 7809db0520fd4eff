// etcd 3.4.23 and 3.5.1 on the page (issue 18): the top bar's picker makes a
// new world on 3.5.1 (every machine's tab and the map's line say so, and
// `etcdctl version` prints it), its share link (format 2) reopens on 3.5.1,
// and a rolling upgrade of one machine through its panel makes a mixed
// cluster that the map shows at a glance; a lesson says which etcd it was
// written for and plays on the other when asked. Screenshots of the mixed cluster at
// 1440×900, 1280×720 and 390×844 go to e2e/out/versions-mixed-*.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useSite } from './helpers/site.mjs';
import { OUT } from './helpers/browser.mjs';
import { control, pause, terminalText, type, waitForOutput, withPage } from './helpers/page.mjs';

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

const NODES = ['node01', 'node02', 'node03'];

/** Each machine's etcd as its map tab says it: { node01: '3.5.1', … }. */
async function tags(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid^="etcd-node"]')].map((t) => [
        t.getAttribute('data-testid').slice('etcd-'.length),
        t.getAttribute('data-etcd'),
      ]),
    ),
  );
}

async function waitForTags(page, want) {
  await page.waitForFunction(
    (want) =>
      Object.entries(want).every(
        ([n, v]) => document.querySelector(`[data-testid="etcd-${n}"]`)?.getAttribute('data-etcd') === v,
      ),
    want,
    { timeout: 20_000 },
  );
}

describe('etcd versions', () => {
  test('picking 3.5 and resetting runs etcd 3.5.1, and its link reopens on it', async () => {
    await withPage(browser, `${server.url}`, async (page) => {
      await waitForTags(page, { node01: '3.4.23', node02: '3.4.23', node03: '3.4.23' });
      assert.equal(await page.locator('[data-testid="etcd-line"]').textContent(), 'etcd 3.4.23');
      const picker = await control(page, 'etcd-version');
      assert.equal(await picker.inputValue(), '3.4');
      await picker.selectOption('3.5');
      await page.locator('[data-testid="reset"]').click();
      await waitForTags(page, { node01: '3.5.1', node02: '3.5.1', node03: '3.5.1' });
      assert.equal(await page.locator('[data-testid="etcd-line"]').textContent(), 'etcd 3.5.1');
      for (const n of NODES) {
        assert.equal(await page.locator(`[data-testid="etcd-${n}"]`).textContent(), 'etcd 3.5.1');
      }
      await type(page, 'node02$ etcdctl version');
      await waitForOutput(page, 'etcdctl version: 3.5.1');
      await type(page, 'machine add node04 192.168.0.64');
      await waitForTags(page, { node04: '3.5.1' });
      await pause(page);
      await page.locator('[data-testid="copy-link"]').click();
      const link = await page.locator('[data-testid="share-text"]').inputValue();
      assert.match(link, /#run=2\.[A-Za-z0-9_-]+$/);
      const text = await terminalText(page);
      await withPage(browser, link, async (copy) => {
        await waitForTags(copy, { node01: '3.5.1', node02: '3.5.1', node03: '3.5.1', node04: '3.5.1' });
        await waitForOutput(copy, 'etcdctl version: 3.5.1');
        assert.equal(await terminalText(copy), text);
        assert.equal(await (await control(copy, 'etcd-version')).inputValue(), '3.5');
      }, { name: 'versions-link-failure' });
    }, { name: 'versions-failure', viewport: { width: 1440, height: 900 } });
  });

  test('a rolling upgrade of one machine shows a mixed cluster at a glance', async () => {
    for (const [w, h] of [[1440, 900], [1280, 720], [390, 844]]) {
      await withPage(browser, `${server.url}?seed=3`, async (page) => {
        await waitForTags(page, { node01: '3.4.23', node02: '3.4.23', node03: '3.4.23' });
        await page.locator('[data-testid="machine-node02"]').click();
        await page.locator('[data-testid="selected-etcd"]', { hasText: 'etcd 3.4.23' }).waitFor();
        await page.locator('[data-testid="action-stop"]').click();
        await page.locator('[data-testid="machine-node02"][data-state="stopped"]').waitFor({ timeout: 20_000 });
        await page.locator('[data-testid="action-switch-etcd"]', { hasText: 'Switch to etcd 3.5.1' }).click();
        await waitForTags(page, { node02: '3.5.1' });
        await page.locator('[data-testid="selected-etcd"]', { hasText: 'etcd 3.5.1' }).waitFor();
        await page.locator('[data-testid="action-start"]').click();
        await page.waitForFunction(
          () => !['stopped', 'exited'].includes(document.querySelector('[data-testid="machine-node02"]')?.dataset.state),
          null,
          { timeout: 20_000 },
        );
        await type(page, 'node02$ etcdctl endpoint status -w table');
        await waitForOutput(page, '3.5.1');
        assert.deepEqual(await tags(page), { node01: '3.4.23', node02: '3.5.1', node03: '3.4.23' });
        const line = page.locator('[data-testid="etcd-line"]');
        assert.equal(await line.textContent(), 'mixed etcd: 2 × 3.4.23, 1 × 3.5.1');
        assert.match(await line.getAttribute('title'), /etcd 3\.5\.1: node02/);
        const aria = await page.locator('[data-testid="machine-node02"] rect.box').getAttribute('aria-label');
        assert.match(aria, /etcd 3\.5\.1\. Press for its actions$/);
        assert.match(await page.locator('[data-testid="hint"]').textContent(), /3 machines, all running etcd, mixed: 2 × 3\.4\.23, 1 × 3\.5\.1 /);
        await pause(page);
        await page.screenshot({ path: join(OUT, `versions-mixed-${w}x${h}-panel.png`) });
        await page.locator('button[aria-label="close the machine\'s actions"]').click();
        await page.locator('[data-testid="machine-node01"]').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(OUT, `versions-mixed-${w}x${h}.png`) });
      }, { name: `versions-mixed-failure-${w}`, viewport: { width: w, height: h } });
    }
  });

  test('a lesson says its etcd and can be played on the other', async () => {
    await withPage(browser, `${server.url}?lesson=001-learner-design&step=2`, async (page) => {
      await page.locator('[data-testid="lesson-etcd"]', { hasText: 'etcd 3.4.23' }).waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="lesson-etcd-line"]', { hasText: 'Runs on etcd 3.4.23' }).waitFor();
      await page.locator('[data-testid="etcd-line"]', { hasText: 'etcd 3.4.23' }).waitFor();
      await page.locator('[data-testid="lesson-etcd-switch"]', { hasText: 'Try on etcd 3.5.1' }).click();
      await page.locator('[data-testid="lesson-etcd-playing"]', { hasText: 'etcd 3.5.1' }).waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="lesson-etcd-line"]', { hasText: 'Written for etcd 3.4.23, playing on etcd 3.5.1' }).waitFor();
      await page.locator('[data-testid="etcd-line"]', { hasText: 'etcd 3.5.1' }).waitFor();
      assert.equal(await page.locator('[data-testid="lesson-step"]').textContent().then((t) => t.startsWith('Step 2 ')), true);
      const tagged = Object.values(await tags(page));
      assert.ok(tagged.length > 0 && tagged.every((v) => v === '3.5.1'), JSON.stringify(tagged));
      await page.screenshot({ path: join(OUT, 'versions-lesson-on-3.5-1440x900.png') });
      await page.locator('[data-testid="lesson-etcd-switch"]', { hasText: 'Back to etcd 3.4.23' }).click();
      await page.locator('[data-testid="lesson-etcd-line"]', { hasText: 'Runs on etcd 3.4.23' }).waitFor({ timeout: 15_000 });
    }, { name: 'versions-lesson-failure', viewport: { width: 1440, height: 900 } });
  });

  test("a lesson's step on machines of the other etcd says so", async () => {
    // each page replays the 24 steps before it first (about 2.5 s: seed 001's
    // figure 1 writes 20,000 keys with `check datascale`)
    for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }, { width: 390, height: 844 }]) {
      await withPage(browser, `${server.url}?lesson=001-learner-design&step=25`, async (page) => {
        // the page replays the 24 steps before it first
        await page.locator('[data-testid="lesson-etcd-line"]', { hasText: 'Runs on etcd 3.4.23' }).waitFor({ timeout: 30_000 });
        const line = page.locator('[data-testid="lesson-machines-etcd"]');
        await line.waitFor({ timeout: 30_000 });
        assert.equal((await line.textContent()).trim(), "This step's machines run etcd 3.5.1.");
        const tagged = Object.values(await tags(page));
        assert.ok(tagged.length === 3 && tagged.every((v) => v === '3.5.1'), JSON.stringify(tagged));
        await page.screenshot({ path: join(OUT, `versions-lesson-step-on-3.5-${viewport.width}x${viewport.height}.png`) });
      }, { name: 'versions-lesson-step-failure', viewport });
    }
    // a step on the lesson's own etcd has no such line
    await withPage(browser, `${server.url}?lesson=001-learner-design&step=2`, async (page) => {
      await page.locator('[data-testid="lesson-etcd-line"]', { hasText: 'Runs on etcd 3.4.23' }).waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="etcd-line"]', { hasText: 'etcd 3.4.23' }).waitFor();
      assert.equal(await page.locator('[data-testid="lesson-machines-etcd"]').count(), 0);
    }, { name: 'versions-lesson-step-failure', viewport: { width: 1440, height: 900 } });
  });
});
