// The Moment shown slider and the map's link handles against the built site
// (E2E_DIST or dist/): one pointer drag of the slider from the end of a run to
// near its start moves the moment shown the whole way; with four machines the
// six link handles sit apart and each cuts its own link; a handle focused by
// the keyboard shows a ring on the handle alone; a cut link's handle forecasts
// its heal. Screenshots at 1440x900 and 390x844 go to e2e/out/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './helpers/site.mjs';
import { screenshot } from './helpers/browser.mjs';
import { elapsedSeconds, pause, setSpeed, withPage as withPageAt } from './helpers/page.mjs';

let browser;
let server;
let failures = 0;

useSite((b, s) => {
  browser = b;
  server = s;
});

function withPage(fn, { query = '', viewport = { width: 1440, height: 900 } } = {}) {
  return withPageAt(browser, `${server.url}${query}`, fn, { viewport, name: `map-timeline-failure-${++failures}` });
}

const seek = (page) => page.locator('[data-testid="seek"]');

/** The seek slider's value, min and max (ms). */
async function seekRange(page) {
  return seek(page).evaluate((el) => ({ value: Number(el.value), min: Number(el.min), max: Number(el.max) }));
}

/** Each link's handle centre in page pixels, by link test id. */
async function handleCentres(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid^="link-"] circle.handle')].map((c) => {
      const r = c.getBoundingClientRect();
      return {
        id: c.closest('[data-testid^="link-"]').getAttribute('data-testid'),
        x: r.x + r.width / 2,
        y: r.y + r.height / 2,
        r: r.width / 2,
      };
    }),
  );
}

async function playFor(page, seconds) {
  await setSpeed(page, '10');
  const button = page.locator('[data-testid="play-pause"]');
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  const start = await elapsedSeconds(page);
  await page.waitForFunction(
    ([s, want]) => {
      const m = /t\+(\d+):(\d+)\.(\d)/.exec(document.querySelector('[data-testid="elapsed"]')?.textContent ?? '');
      return m && Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 10 >= s + want;
    },
    [start, seconds],
    { timeout: 30_000 },
  );
  await pause(page);
}

describe('the Moment shown slider', () => {
  test('one pointer drag from the end of the run to near its start moves the whole way', { timeout: 90_000 }, async () => {
    await withPage(async (page) => {
      await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      await playFor(page, 20);
      const before = await seekRange(page);
      assert.ok(before.max - before.min >= 15_000, `a run of ${before.max - before.min} ms`);
      assert.ok(before.max - before.value < 100, `the slider shows the end of the run: ${JSON.stringify(before)}`);
      await seek(page).scrollIntoViewIfNeeded();
      const box = await seek(page).boundingBox();
      const y = box.y + box.height / 2;
      // The thumb sits at the right end; grab it there and drag left in steps,
      // letting the page render (and replay) between moves.
      const from = box.x + box.width - 6;
      const to = box.x + box.width * 0.03;
      const handle = await seek(page).elementHandle();
      await page.mouse.move(from, y);
      await page.mouse.down();
      const steps = 12;
      for (let i = 1; i <= steps; i++) {
        await page.mouse.move(from + ((to - from) * i) / steps, y, { steps: 2 });
        await page.waitForTimeout(60);
      }
      await page.mouse.up();
      await page.locator('[data-testid="rewound"]').waitFor({ timeout: 10_000 });
      const after = await seekRange(page);
      const moved = before.value - after.value;
      const run = before.max - before.min;
      assert.ok(moved > run / 2, `one drag moved ${moved} ms of a ${run} ms run (now at ${after.value})`);
      assert.ok(after.value - after.min < run * 0.2, `the drag ended near the start: ${after.value - after.min} ms in`);
      // The same input element all along.
      assert.ok(await handle.evaluate((el) => el.isConnected), 'the slider was replaced');
      await screenshot(page, 'map-timeline-seek-1440.png');
    });
  });
});

describe('the map with four machines', () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    test(`six link handles apart, each cutting its own link (${viewport.width}x${viewport.height})`, { timeout: 90_000 }, async () => {
      await withPage(async (page) => {
        await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
        await pause(page);
        await page.locator('[data-testid="action-add-machine"]').click();
        await page.locator('[data-testid="machine-node04"]').waitFor();
        await page.locator('[data-testid^="link-"]').nth(5).waitFor();
        assert.equal(await page.locator('[data-testid^="link-"][data-state]').count(), 6);
        await page.locator('svg.map').scrollIntoViewIfNeeded();
        const hs = await handleCentres(page);
        assert.equal(hs.length, 6);
        for (let i = 0; i < hs.length; i++) {
          for (let j = i + 1; j < hs.length; j++) {
            const d = Math.hypot(hs[i].x - hs[j].x, hs[i].y - hs[j].y);
            assert.ok(d > hs[i].r + hs[j].r, `${hs[i].id} and ${hs[j].id} handles ${d.toFixed(1)} px apart`);
          }
        }
        await screenshot(page, `map-timeline-four-${viewport.width}.png`);
        for (const h of hs) {
          const link = page.locator(`[data-testid="${h.id}"]`);
          assert.equal(await link.getAttribute('data-state'), 'up', h.id);
          const [c] = (await handleCentres(page)).filter((x) => x.id === h.id);
          // What the pointer hits at the handle's centre is this link.
          const hit = await page.evaluate(
            ([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid^="link-"]')?.getAttribute('data-testid'),
            [c.x, c.y],
          );
          assert.equal(hit, h.id, `the pointer at ${h.id}'s handle hits ${hit}`);
          await page.mouse.click(c.x, c.y);
          await page.locator(`[data-testid="${h.id}"][data-state="cut"]`).waitFor({ timeout: 5_000 });
        }
        await screenshot(page, `map-timeline-four-cut-${viewport.width}.png`);
      }, { viewport });
    });
  }

  test('a keyboard-focused handle has a ring on the handle only; a cut link forecasts its heal', { timeout: 90_000 }, async () => {
    await withPage(async (page) => {
      await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      await pause(page);
      const id = 'link-node01-node02';
      const link = page.locator(`[data-testid="${id}"]`);
      // Cut it with the pointer: no outline anywhere on the map afterwards.
      await link.locator('circle.handle').click();
      await page.locator(`[data-testid="${id}"][data-state="cut"]`).waitFor();
      const outlines = await page.evaluate(() =>
        [document.querySelector('svg.map'), ...document.querySelectorAll('svg.map [data-testid^="link-"]')]
          .map((el) => getComputedStyle(el).outlineStyle)
          .filter((s) => s !== 'none'),
      );
      assert.deepEqual(outlines, [], 'no outline on the map or a link after a click');
      // The pointer on the cut link's handle: a heal forecast.
      await page.mouse.move(0, 0);
      await link.locator('circle.handle').hover();
      const forecast = page.locator('[data-testid="forecast"]');
      await forecast.filter({ hasText: /heal/i }).waitFor({ timeout: 5_000 });
      const text = await forecast.textContent();
      assert.doesNotMatch(text, /cutting/, text);
      await screenshot(page, 'map-timeline-heal-forecast-1440.png');
      // Healed with a click, the forecast under the pointer is a cut again.
      await link.locator('circle.handle').click();
      await page.locator(`[data-testid="${id}"][data-state="up"]`).waitFor();
      await forecast.filter({ hasText: /cutting/ }).waitFor({ timeout: 5_000 });
      await page.mouse.move(0, 0);
      // Keyboard focus: Tab until a link has it.
      await page.locator('[data-testid="machine-node03"] rect.box').focus();
      let focused = null;
      for (let i = 0; i < 40 && !focused?.startsWith('link-'); i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      }
      if (!focused?.startsWith('link-')) {
        await page.keyboard.press('Shift+Tab');
        for (let i = 0; i < 40 && !focused?.startsWith('link-'); i++) {
          await page.keyboard.press('Shift+Tab');
          focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
        }
      }
      assert.ok(focused?.startsWith('link-'), `Tab reached ${focused}`);
      const rings = await page.evaluate(() => {
        const shown = (el) => {
          const s = getComputedStyle(el);
          return s.display !== 'none' && s.visibility !== 'hidden' && Number(s.opacity) > 0;
        };
        return {
          focusVisible: document.activeElement.matches(':focus-visible'),
          linkOutline: getComputedStyle(document.activeElement).outlineStyle,
          mapOutline: getComputedStyle(document.querySelector('svg.map')).outlineStyle,
          ringsShown: [...document.querySelectorAll('svg.map .focus-ring')]
            .filter(shown)
            .map((r) => r.closest('[data-testid^="link-"]').getAttribute('data-testid')),
          ringBox: (() => {
            const r = document.activeElement.querySelector('.focus-ring')?.getBoundingClientRect();
            return r && { w: r.width, h: r.height };
          })(),
        };
      });
      assert.ok(rings.focusVisible, 'the focused link matches :focus-visible');
      assert.equal(rings.linkOutline, 'none');
      assert.equal(rings.mapOutline, 'none');
      assert.deepEqual(rings.ringsShown, [focused], 'one ring, on the focused handle');
      assert.ok(rings.ringBox.w < 60 && rings.ringBox.h < 60, `a compact ring: ${JSON.stringify(rings.ringBox)}`);
      await screenshot(page, 'map-timeline-focus-1440.png');
    });
  });
});

describe('phone', () => {
  test('the slider drags at 390x844', { timeout: 90_000 }, async () => {
    await withPage(async (page) => {
      await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      await playFor(page, 12);
      const before = await seekRange(page);
      await seek(page).scrollIntoViewIfNeeded();
      const box = await seek(page).boundingBox();
      const y = box.y + box.height / 2;
      const from = box.x + box.width - 6;
      const to = box.x + 2;
      await page.mouse.move(from, y);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) {
        await page.mouse.move(from + ((to - from) * i) / 8, y);
        await page.waitForTimeout(60);
      }
      await page.mouse.up();
      const after = await seekRange(page);
      assert.ok(before.value - after.value > (before.max - before.min) / 2, `moved ${before.value - after.value} ms`);
      await screenshot(page, 'map-timeline-seek-390.png');
    }, { viewport: { width: 390, height: 844 } });
  });
});
