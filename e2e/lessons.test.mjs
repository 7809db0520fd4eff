// Lessons in the built site: each lesson is played start to end with Run and
// Next (each step sped up to 100x after Run, as an impatient learner would;
// every step's checks on the lesson's path; the learner's steps done with
// "Do it for me"), Back replays to the end of the previous step (the
// terminal equals what it showed there), and a lesson with a mistake, a
// missing lesson or one from another site get a message. Then what a step
// asks and lets the learner do: a question before Run and its answer after,
// the learner's command recognised when typed and when done with a button,
// focus after Run, a late step replayed in parts (its progress shown), and a step's sleep played at its speed (the clock moves during the
// step instead of jumping).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite } from './helpers/site.mjs';
import { DIST, screenshot, watchErrors } from './helpers/browser.mjs';
import { elapsedSeconds, parseElapsed, setSpeed, terminalText, type, withPage } from './helpers/page.mjs';

const LESSONS = [
  '000-server-addition-deletion',
  '001-learner-design',
  '002-runtime-reconfiguration',
  '003-two-nodes-learner-standby',
  '004-clustering-step-by-step',
  '005-snapshot-catch-up',
  '006-rolling-upgrade',
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
          // An impatient learner: the step plays at 100x, not at its own speed
          // (the last test of this file watches a step play at its speed).
          await setSpeed(page, '100');
          const checks = page.locator('[data-testid="lesson-checks"]');
          const doIt = page.locator('[data-testid="lesson-do-it"]');
          await checks.or(doIt).first().waitFor({ timeout: 60_000 });
          if (await doIt.isVisible()) {
            await doIt.click();
            await page.locator('[data-testid="lesson-do"][data-state="done-for-you"]').waitFor();
          }
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

  test('a question is asked before Run and answered after; the learner\'s command is recognised when typed', { timeout: 90_000 }, async () => {
    await withLesson('?lesson=005-snapshot-catch-up&step=3', async (page) => {
      await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 3 of 5' }).waitFor({ timeout: 15_000 });
      const question = page.locator('[data-testid="lesson-question"]');
      assert.equal(await question.getAttribute('data-verdict'), 'open');
      assert.match(await question.textContent(), /can node02 read/);
      assert.equal(await page.locator('[data-testid="lesson-answer"]').count(), 0, 'no answer before the step ran');
      // The learner predicts (wrongly), then runs the step.
      await page.locator('[data-testid="lesson-choice-1"]').click();
      assert.equal(await page.locator('[data-testid="lesson-choice-1"]').getAttribute('aria-pressed'), 'true');
      await page.locator('[data-testid="lesson-run"]').click();
      await page.locator('[data-testid="lesson-panel"][data-phase="your-turn"]').waitFor();
      assert.equal(await page.locator('[data-testid="lesson-do"]').getAttribute('data-state'), 'waiting');
      assert.equal(await page.locator('[data-testid="lesson-answer"]').count(), 0, 'no answer while the learner has not acted');
      // Something else first: not the step's command, so the page keeps waiting.
      await type(page, 'node01$ etcdctl --endpoints=http://10.0.5.1:2379 member list');
      await page.waitForTimeout(300);
      assert.equal(await page.locator('[data-testid="lesson-do"]').getAttribute('data-state'), 'waiting');
      // The learner's command, typed with other blanks and quotes.
      await type(page, "node01$ etcdctl  --endpoints=http://10.0.5.1:2379 member promote '5ab1696a6c225f72'");
      await page.locator('[data-testid="lesson-do"][data-state="performed"]').waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor({ timeout: 30_000 });
      assert.equal(await question.getAttribute('data-verdict'), 'wrong');
      const answer = await page.locator('[data-testid="lesson-answer"]').textContent();
      assert.match(answer, /^Not this time\. Yes: The snapshot holds the whole store/);
      assert.match(answer, /You picked “No, the read fails”/);
      assert.match(await terminalText(page), /promoted in cluster/);
    });
  });

  test('the learner\'s command is recognised when done with the page\'s button; focus stays on the controls', { timeout: 90_000 }, async () => {
    await withLesson('?lesson=002-runtime-reconfiguration&step=12', async (page) => {
      await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 12 of 17' }).waitFor({ timeout: 15_000 });
      const run = page.locator('[data-testid="lesson-run"]');
      await run.focus();
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="lesson-panel"][data-phase="your-turn"]').waitFor({ timeout: 30_000 });
      // node03's Stop button runs `(node03)$ kill etcd`: the step's command.
      await page.locator('[data-testid="machine-node03"]').click();
      await page.locator('[data-testid="action-stop"]').click();
      await page.locator('[data-testid="lesson-do"][data-state="performed"]').waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor({ timeout: 30_000 });
      // Run, by keyboard, on a step without a learner's command: focus moves to Next, and Tab from Run is Next, never ×.
      await page.locator('[data-testid="lesson-next"]').click();
      await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 13 of 17' }).waitFor();
      await run.focus();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'lesson-next', 'Tab from Run');
      await run.focus();
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => document.activeElement?.dataset.testid === 'lesson-next', null, { timeout: 5_000 });
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 14 of 17' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'lesson-next', 'Next keeps focus');
      assert.equal(await page.locator('[data-testid="lesson-panel"]').count(), 1, 'the lesson is still open');
    });
  });

  test('a late step is replayed in parts: the page says so while it replays', { timeout: 120_000 }, async () => {
    // Step 25 of lesson 001 replays ~230,000 events (figure 1 writes 20,000
    // keys twice): more than one part. The CPU is slowed four times from the
    // start so the progress stays long enough to be seen on any machine.
    // (Stopping it is tests/lesson_player.rs's: a click lands between parts.)
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      const errors = watchErrors(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(`${server.url}?lesson=001-learner-design&step=25`);
      // One look, while it shows (a second look may come after the last part).
      const progress = page.locator('[data-testid="replay-progress"]');
      await progress
        .filter({ hasText: 'Replaying the lesson to step 25' })
        .filter({ hasText: /Replaying command \d+ of \d+/ })
        .waitFor({ timeout: 60_000 });
      await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 25 of 26' }).waitFor({ timeout: 60_000 });
      assert.equal(await progress.count(), 0, 'the progress is gone once the lesson is there');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a step plays its sleep at its speed: the clock moves during the step', { timeout: 90_000 }, async () => {
    await withPage(browser, `${server.url}?lesson=001-learner-design`, async (page) => {
      await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 1 of 26' }).waitFor({ timeout: 15_000 });
      const before = await elapsedSeconds(page);
      // Sampled every 50 ms by the page itself (the display's node may be replaced).
      await page.evaluate(() => {
        window.__samples = [];
        window.__sampler = setInterval(() => window.__samples.push(document.querySelector('[data-testid="elapsed"]')?.textContent ?? ''), 50);
      });
      const t0 = Date.now();
      await page.locator('[data-testid="lesson-run"]').click();
      await page.locator('[data-testid="lesson-running"]').waitFor();
      await page.waitForTimeout(1500);
      await screenshot(page, 'lesson-mid-step.png');
      await page.locator('[data-testid="lesson-checks"][data-state="on-path"]').waitFor({ timeout: 30_000 });
      const took = Date.now() - t0;
      const after = await elapsedSeconds(page);
      const texts = await page.evaluate(() => {
        clearInterval(window.__sampler);
        return window.__samples;
      });
      const seen = texts.filter((t) => /t\+\d+:\d+\.\d/.test(t)).map(parseElapsed);
      const between = [...new Set(seen.filter((s) => s > before + 0.2 && s < after - 0.2))];
      // `sleep 3` at speed 1: about 3 s of real time, and many moments shown on the way.
      assert.ok(after - before >= 3, `the step ran ${after - before} simulated seconds`);
      assert.ok(took >= 2500, `the step took ${took} ms of real time`);
      assert.ok(between.length >= 10, `moments shown during the step: ${between.length} (${seen.join(', ')})`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], 'the clock never goes back');
      // Paused again at the step's end: the clock stands still.
      await page.waitForTimeout(500);
      assert.equal(await elapsedSeconds(page), after, 'the clock pauses at the end of the step');
      process.stdout.write(`# lesson step: ${(after - before).toFixed(1)} simulated s in ${took} ms real, ${between.length} moments shown between\n`);
    }, { viewport: { width: 1280, height: 720 }, name: 'lesson-speed' });
  });
});
