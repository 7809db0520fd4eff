// The panic banner in the built site (issue 20): a test-only trigger, exported
// to the page's own script (Trunk's `window.wasmBindings`) and reachable from
// no link, makes the app panic while rendering, as a bug would. The banner
// shows the seed and the commands typed so far; afterwards the page has
// stopped cleanly: typing, keys, clicks, host messages and fragment changes
// reach nothing, its clock's loop no longer runs, no further error is
// reported, the banner shows once and still takes the keyboard, and Reload
// brings a working page back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './helpers/site.mjs';
import { screenshot, watchErrors } from './helpers/browser.mjs';
import { INPUT, OUTPUT, terminalText, type, waitForOutput } from './helpers/page.mjs';

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

const BANNER = '[data-testid="panic-banner"]';

/** The errors a panic itself reports: the report on the console, and wasm's trap. */
const fromThePanic = (e) => e.includes('Quorum Playground stopped') || e.includes('unreachable');

async function openAndPanic(viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = watchErrors(page);
  // At 100x the clock's loop does the most work per frame.
  await page.goto(`${server.url}?seed=7&speed=100`, { waitUntil: 'load' });
  await page.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForFunction(() => typeof window.wasmBindings?.quorumPlaygroundTestPanic === 'function');
  await type(page, 'etcdctl put alpha 1');
  await type(page, 'etcdctl get alpha');
  await page.waitForFunction(
    (sel) => [...document.querySelector(sel).children].map((d) => d.textContent).join('\n').includes('get alpha\nalpha\n1'),
    OUTPUT,
    { timeout: 15_000 },
  );
  assert.deepEqual(errors, [], 'no error before the panic');
  await page.evaluate(() => window.wasmBindings.quorumPlaygroundTestPanic());
  await page.locator(BANNER).waitFor({ timeout: 10_000 });
  return { context, page, errors };
}

describe('the panic banner', () => {
  test('shows the seed and the commands, and the stopped page takes no input', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await openAndPanic({ width: 1440, height: 900 });
    try {
      const report = await page.locator(`${BANNER} textarea`).inputValue();
      assert.match(report, /^Quorum Playground stopped: /);
      assert.match(report, /test panic: quorumPlaygroundTestPanic\(\) was called/);
      assert.match(report, /seed 7/);
      assert.match(report, /--seed 7/);
      assert.match(report, /^commands so far: 2$/m);
      assert.match(report, /^etcdctl put alpha 1$/m);
      assert.match(report, /^etcdctl get alpha$/m);
      assert.match(await page.locator(BANNER).textContent(), /hit a bug and stopped/);
      assert.equal(await page.locator('.app').getAttribute('inert'), '', 'the app is inert');
      await screenshot(page, 'panic-banner-1440.png');
      // Let the panic's own reports arrive, then nothing more may come.
      await page.waitForTimeout(500);
      assert.ok(errors.length >= 1 && errors.every(fromThePanic), errors.join('\n'));
      const reported = errors.length;
      const before = await terminalText(page);

      // Listeners like the app's (keys on the document, host messages and
      // fragment changes on the window) hear nothing any more.
      await page.evaluate(() => {
        window.__reached = [];
        const note = (what) => () => window.__reached.push(what);
        document.addEventListener('keydown', note('keydown'));
        document.addEventListener('click', note('click'));
        window.addEventListener('message', note('message'));
        window.addEventListener('hashchange', note('hashchange'));
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const scriptSeconds = async () =>
        (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ScriptDuration').value;

      // Typing: the input cannot take focus, and keys go nowhere.
      await page.evaluate((sel) => document.querySelector(sel).focus(), INPUT);
      assert.notEqual(await page.evaluate((sel) => document.activeElement === document.querySelector(sel), INPUT), true);
      // With the banner's report focused (as it is), then with nothing focused.
      for (const blur of [false, true]) {
        if (blur) await page.evaluate(() => document.activeElement?.blur());
        await page.keyboard.type('etcdctl put beta 2');
        await page.keyboard.press('Enter');
        for (const key of [' ', '.', 'ArrowUp']) await page.keyboard.press(key);
      }
      // Clicks where the buttons and the map are (not where the banner lies
      // over them: the banner stays alive, and its Reload would reload).
      let clicked = 0;
      for (const id of ['play-pause', 'tick', 'reset', 'machine-node01', 'link-node01-node02']) {
        const box = await page.locator(`[data-testid="${id}"]`).first().boundingBox({ timeout: 5_000 });
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        const onBanner = await page.evaluate(([x, y, sel]) => !!document.elementFromPoint(x, y)?.closest(sel), [x, y, BANNER]);
        if (onBanner) continue;
        await page.mouse.click(x, y);
        clicked += 1;
      }
      assert.ok(clicked >= 1, "no click landed outside the banner");
      // A host's message and a share link's fragment change.
      await page.evaluate(() => {
        window.postMessage({ type: 'quorum-playground:run', line: 'etcdctl put delta 4' }, '*');
        location.hash = '#run=1.eJwLyS8tKS0qiVJIzs8tqFRIzs9JLEvMyUxRSM7PS0_NKwEAgwEJ2w';
      });
      // The trigger again: a dead app adds nothing.
      await page.evaluate(() => window.wasmBindings.quorumPlaygroundTestPanic());
      await page.waitForTimeout(2000);
      assert.deepEqual(await page.evaluate(() => window.__reached), [], 'no event reached a listener of the page');
      // The clock's loop was cancelled: no script runs while nothing happens.
      // The window is a quiet one, after the test's own evaluates: those run
      // script too, and a slow machine once counted 14 ms of them. A loop
      // still running would tick the world 120 times in these 2 s.
      const scriptBefore = await scriptSeconds();
      await page.waitForTimeout(2000);
      const idle = (await scriptSeconds()) - scriptBefore;
      assert.ok(idle < 0.005, `script ran for ${idle.toFixed(3)} s in 2 s after the panic`);
      // The banner still takes the keyboard: its report can be selected to copy.
      await page.locator(`${BANNER} textarea`).click();
      await page.keyboard.press('ControlOrMeta+a');
      assert.ok(await page.evaluate(() => {
        const t = document.activeElement;
        return t.tagName === 'TEXTAREA' && t.selectionEnd - t.selectionStart === t.value.length;
      }), 'the report is selected');

      assert.equal(await terminalText(page), before, 'the terminal did not change');
      assert.ok(!(await page.locator(OUTPUT).textContent()).includes('beta'));
      assert.equal(await page.locator(BANNER).count(), 1, 'one banner');
      assert.equal(errors.length, reported, `no new error after the panic:\n${errors.slice(reported).join('\n')}`);

      // The banner's own buttons still work: Reload gives a working page.
      await page.locator(BANNER).getByRole('button', { name: 'Reload' }).click();
      await page.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await page.locator(BANNER).count(), 0);
      await type(page, 'etcdctl put gamma 3');
      await waitForOutput(page, 'gamma');
    } finally {
      await context.close();
    }
  });

  test('the banner on a phone', { timeout: 60_000 }, async () => {
    const { context, page, errors } = await openAndPanic({ width: 390, height: 844 });
    try {
      await page.waitForTimeout(300);
      const box = await page.locator(BANNER).boundingBox();
      assert.ok(box.width <= 390, `the banner fits: ${box.width}`);
      await screenshot(page, 'panic-banner-390.png');
      assert.ok(errors.every(fromThePanic), errors.join('\n'));
    } finally {
      await context.close();
    }
  });

  test('no link can reach the trigger', { timeout: 60_000 }, async () => {
    // Names that look like it in the query and the fragment do nothing.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await page.goto(`${server.url}?quorumPlaygroundTestPanic=1#quorumPlaygroundTestPanic`, { waitUntil: 'load' });
      await page.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(500);
      assert.equal(await page.locator(BANNER).count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
