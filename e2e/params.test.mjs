// A notice for every ignored or bad URL parameter (issue 20): an unknown
// name, a bad `autoplay=`, `start=`, `seed=`, `embed=` or `origin=`, an empty
// `panels=`, a `step=` that is not a step or is beyond the lesson, and world
// parameters a lesson or a share link overrides: each is named with what the
// page did instead, and the page still works. A bad `origin=` leaves the
// framed page deaf to its host and silent towards it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { useSite } from './helpers/site.mjs';
import { screenshot, watchErrors } from './helpers/browser.mjs';
import { INPUT, OUTPUT, withPage } from './helpers/page.mjs';

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

const VIEWPORT = { width: 1440, height: 900 };
const notice = (page) => page.locator('[data-testid="notice"]');

/** Opens the page with `query`, waits for a notice saying each of `says`, then runs `more(page)`. */
function noticeFor(query, says, more = async () => {}) {
  return withPage(
    browser,
    `${server.url}${query}`,
    async (page) => {
      for (const s of says) await notice(page).filter({ hasText: s }).waitFor({ timeout: 15_000 });
      await more(page);
    },
    { viewport: VIEWPORT, name: 'params-failure' },
  );
}

function linkOf(json) {
  return `run=1.${deflateSync(Buffer.from(JSON.stringify(json)), { level: 9 }).toString('base64url')}`;
}

describe('URL parameters', () => {
  test('a page with good parameters has no notice', { timeout: 60_000 }, async () => {
    await withPage(browser, `${server.url}?seed=3&start=cluster&autoplay=0&speed=2&panels=map,terminal,promises`, async (page) => {
      await page.waitForTimeout(500);
      assert.equal(await notice(page).count(), 0);
      await page.locator('[data-testid="machine-node01"]').waitFor();
      assert.equal(await page.locator('[data-testid="seed"]').count(), 0, 'no controls: only the panels asked for');
    }, { viewport: VIEWPORT });
  });

  test('unknown names and bad values are named with what the page did', { timeout: 120_000 }, async () => {
    await noticeFor('?foo=1', ['"foo" is not a parameter this page reads', 'it is ignored']);
    await noticeFor('?autoplay=maybe', ['autoplay: "maybe" is not 0 or 1; it is ignored.']);
    await noticeFor('?start=mars', ['start: "mars" is not cluster or empty; the page starts with a three-member cluster.'], async (page) => {
      await page.locator('[data-testid="machine-node01"]').waitFor();
    });
    await noticeFor('?seed=x&start=empty', ['seed: "x" is not a whole number'], async (page) => {
      assert.equal(await page.locator('[data-testid="seed"]').inputValue(), '1');
      assert.equal(await page.locator('[data-testid="machine-node01"]').count(), 0, 'start=empty still counts');
    });
    await noticeFor('?embed=yes', ['embed: "yes" is not 0 or 1']);
    await noticeFor('?seed=2&seed=3', ['seed= is given more than once; the last one is used.'], async (page) => {
      assert.equal(await page.locator('[data-testid="seed"]').inputValue(), '3');
    });
    await noticeFor('?a=1&b=2&c=3&d=4&e=5&f=6', ['"a" is not a parameter', '"d" is not a parameter', '(And 2 more.)'], async (page) => {
      assert.ok(!(await notice(page).textContent()).includes('"e"'));
    });
    // Text from the URL is only ever text.
    await noticeFor(`?${encodeURIComponent('<img src=x onerror=window.__pwned=1>')}=1`, ['is not a parameter'], async (page) => {
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      assert.equal(await notice(page).locator('img').count(), 0);
    });
    // Not valid percent-encoding: named as written, not dropped.
    await noticeFor('?seed=%E0%A4%A', ['seed: "%E0%A4%A" is not a whole number']);
  });

  test('an empty panels= shows the default panels and says so', { timeout: 60_000 }, async () => {
    await noticeFor('?embed=1&panels=', ['panels: no known panel is named; the default ones show (controls, map, terminal, quorum).'], async (page) => {
      for (const id of ['play-pause', 'machine-node01', 'quorum-status']) await page.locator(`[data-testid="${id}"]`).waitFor();
      await screenshot(page, 'params-empty-panels.png');
    });
    await noticeFor('?embed=1&panels=nope', ['panels: "nope" is not a panel', 'the default ones show'], async (page) => {
      await page.locator('[data-testid="machine-node01"]').waitFor();
    });
  });

  test('step= problems are said once the lesson opens', { timeout: 120_000 }, async () => {
    const lesson = '000-server-addition-deletion';
    await noticeFor(`?lesson=${lesson}&step=x`, ['step: "x" is not a step number (1, 2, …); the lesson opens at step 1.'], async (page) => {
      await page.locator('[data-testid="lesson-step"]', { hasText: /^Step 1 of/ }).waitFor();
    });
    await noticeFor(`?lesson=${lesson}&step=0`, ['step: "0" is not a step number'], async (page) => {
      await page.locator('[data-testid="lesson-step"]', { hasText: /^Step 1 of/ }).waitFor();
    });
    await noticeFor(`?lesson=${lesson}&step=99`, [/step: the lesson has \d+ steps, not 99; it opens at step \d+\./], async (page) => {
      const text = await notice(page).textContent();
      const n = /has (\d+) steps/.exec(text)[1];
      await page.locator('[data-testid="lesson-step"]', { hasText: `Step ${n} of ${n}` }).waitFor();
    });
    await noticeFor(`?lesson=${lesson}&seed=5&step=x`, ['seed= is ignored: the lesson starts its own world.', 'step: "x"']);
    await noticeFor('?step=3', ['step: no lesson= is given, so it is ignored.']);
  });

  test('a share link says which query parameters its run overrides', { timeout: 60_000 }, async () => {
    const fragment = linkOf({ v: 1, seed: 4, start: 'cluster', speed: 1, steps: [[0, 'echo from-the-link']], tail: 0 });
    await noticeFor(`?seed=9&lesson=000-server-addition-deletion#${fragment}`, ["seed= and lesson= are ignored: the share link's run has its own world."], async (page) => {
      await page.locator(OUTPUT, { hasText: 'from-the-link' }).waitFor();
      assert.equal(await page.locator('[data-testid="seed"]').inputValue(), '4');
      assert.equal(await page.locator('[data-testid="lesson-panel"]').count(), 0);
    });
  });

  test('a bad origin= is refused: the framed page reads no message and sends none', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await page.goto(`${server.url}static/embed-example.html`, { waitUntil: 'load' });
      await page.frameLocator('#playground').locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
      await page.evaluate(() => {
        window.events.length = 0;
        document.getElementById('playground').src = '../index.html?embed=1&panels=controls,terminal&origin=*';
      });
      await page.waitForFunction(() => document.getElementById('playground').contentWindow.location.search.includes('origin='));
      const frame = page.frameLocator('#playground');
      await frame.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
      await frame.locator('[data-testid="notice"]', { hasText: 'origin: "*" is not an origin such as https://example.org' }).waitFor();
      await frame.locator('[data-testid="notice"]', { hasText: 'the page reads no messages from its host and sends it none' }).waitFor();
      await page.evaluate(() => window.runCommand('etcdctl put from-host 1'));
      await page.waitForTimeout(1000);
      assert.ok(!(await frame.locator(OUTPUT).textContent()).includes('from-host'), 'the host message ran nothing');
      assert.deepEqual(await page.evaluate(() => window.events), [], 'no event went to the host');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
