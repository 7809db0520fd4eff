// Lessons in the built site: each lesson is played start to end with Run and
// Next (every step's checks on the lesson's path), Back replays to the end of
// the previous step (the terminal equals what it showed there), and a lesson
// with a mistake, a missing lesson or one from another site get a message.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite } from './helpers/site.mjs';
import { DIST, screenshot } from './helpers/browser.mjs';
import { terminalText, withPage } from './helpers/page.mjs';

const LESSONS = [
  '000-server-addition-deletion',
  '001-learner-design',
  '002-runtime-reconfiguration',
  '003-two-nodes-learner-standby',
  '004-clustering-step-by-step',
  '005-snapshot-catch-up',
];

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

// A missing lesson's 404 is what one test asks for.
function withLesson(query, fn) {
  return withPage(browser, `${server.url}${query}`, fn, { name: 'lesson-failure', ignore: (e) => e.includes('404') });
}

const stepText = (page) => page.locator('[data-testid="lesson-step"]').textContent();

describe('lessons', () => {
  for (const name of LESSONS) {
    test(`${name}: Run and Next to the end, then Back`, { timeout: 240_000 }, async () => {
      await withLesson(`?lesson=${name}`, async (page) => {
        await page.locator('[data-testid="lesson-panel"]').waitFor({ timeout: 15_000 });
        const first = await stepText(page);
        const n = Number(/of (\d+)/.exec(first)[1]);
        assert.ok(n >= 2, `${name} has steps`);
        const ends = [];
        for (let i = 1; i <= n; i++) {
          assert.match(await stepText(page), new RegExp(`^Step ${i} of ${n}`));
          await page.locator('[data-testid="lesson-run"]').click();
          const checks = page.locator('[data-testid="lesson-checks"]');
          await checks.waitFor({ timeout: 60_000 });
          const state = await checks.getAttribute('data-state');
          assert.equal(state, 'on-path', `step ${i}: ${await checks.textContent()}`);
          ends.push(await terminalText(page));
          if (i < n) await page.locator('[data-testid="lesson-next"]').click();
        }
        await screenshot(page, `lesson-${name}.png`);
        // Back: the world at the end of the previous step, replayed.
        await page.locator('[data-testid="lesson-back"]').click();
        await page.locator('[data-testid="lesson-step"]', { hasText: `Step ${n - 1} of ${n}` }).waitFor();
        await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor();
        assert.equal(await terminalText(page), ends[n - 2], 'Back replays to the end of the previous step');
      });
    });
  }

  test('going off the path is noticed and the world can be put back', { timeout: 60_000 }, async () => {
    await withLesson(`?lesson=${LESSONS[0]}`, async (page) => {
      await page.locator('[data-testid="lesson-panel"]').waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="lesson-run"]').click();
      await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor();
      const input = page.locator('[data-testid="terminal-input"]');
      await input.fill('node01$ kill -9 etcd');
      await input.press('Enter');
      await page.locator('[data-testid="lesson-checks"][data-state="off-path"]').waitFor();
      await page.locator('[data-testid="lesson-restore"]').click();
      await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor();
    });
  });

  test('a broken, missing or foreign lesson gets a message naming the problem', { timeout: 60_000 }, async () => {
    const file = join(DIST, 'static', 'lessons', 'zz-broken.lesson');
    await writeFile(file, 'title: broken\n\n## 1. one\n$ etcdctl member list\n| ok\n? quorum maybe\n');
    try {
      await withLesson('?lesson=zz-broken', async (page) => {
        await page.locator('[data-testid="lesson-error"]', { hasText: 'zz-broken:6:' }).waitFor({ timeout: 15_000 });
      });
      await withLesson('?lesson=no-such-lesson', async (page) => {
        await page.locator('[data-testid="lesson-error"]', { hasText: 'HTTP 404' }).waitFor({ timeout: 15_000 });
      });
      await withLesson(`?lesson=${encodeURIComponent('https://example.com/x.lesson')}`, async (page) => {
        await page.locator('[data-testid="lesson-error"]', { hasText: 'not a lesson on this site' }).waitFor({ timeout: 15_000 });
      });
    } finally {
      await rm(file, { force: true });
    }
  });
});
