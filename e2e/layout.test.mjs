// The page's layout against the built site (dist/), measured with bounding
// boxes in Chromium:
// - one screen at 1280x720 and 1440x900: the map, the quorum line, the
//   terminal's prompt and the timeline strip (and, with a lesson open, its step
//   and Back/Run/Next) are inside the window with the document not scrolled
//   and nothing covering them; the top bar is one row; the timeline's x-axis
//   and the Moment shown slider line up from the run's first moment to its last;
// - a phone (390x844): the top bar folds behind "Settings", the map's text is
//   at least 11 px as rendered (3 and 7 machines), link handles are touch-sized
//   (40 px or more, and a tap that far from the centre still hits the handle),
//   and a tapped machine's actions appear right under the map, in view.
// - the lost-writes banner folds to its headline and leaves the map its room.
// Screenshots: e2e/out/home-1440.png, home-1280.png, lesson-1280.png, phone-390.png,
// phone-lesson-390.png, lost-banner-1280.png, lost-banner-1440.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { useSite } from './helpers/site.mjs';
import { OUT } from './helpers/browser.mjs';
import { pause, setSpeed, type, waitForOutput, withPage } from './helpers/page.mjs';

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

const LESSON = '?lesson=static/lessons/000-server-addition-deletion.lesson';

/** A screenshot of the window alone (what a learner sees first), into e2e/out/. */
async function shot(page, name) {
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, name) });
}

/**
 * Asserts each selector's first element is wholly inside the window, with the
 * document not scrolled, and is what the browser finds at its centre (nothing
 * covers it). Returns the boxes by selector.
 */
async function assertInView(page, selectors, what) {
  const r = await page.evaluate((selectors) => {
    const out = { scrollX: window.scrollX, scrollY: window.scrollY, w: innerWidth, h: innerHeight, boxes: {} };
    for (const sel of selectors) {
      const el = document.querySelector(sel);
      if (!el) {
        out.boxes[sel] = null;
        continue;
      }
      const b = el.getBoundingClientRect();
      const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
      out.boxes[sel] = { x: b.x, y: b.y, right: b.right, bottom: b.bottom, width: b.width, height: b.height, covered: !(hit && (el === hit || el.contains(hit) || hit.contains(el))) };
    }
    return out;
  }, selectors);
  assert.equal(r.scrollY, 0, `${what}: the document is not scrolled`);
  for (const sel of selectors) {
    const b = r.boxes[sel];
    assert.ok(b, `${what}: ${sel} is on the page`);
    assert.ok(b.width > 0 && b.height > 0, `${what}: ${sel} has a size: ${JSON.stringify(b)}`);
    assert.ok(b.x >= 0 && b.y >= 0 && b.right <= r.w + 0.5 && b.bottom <= r.h + 0.5, `${what}: ${sel} is inside the ${r.w}x${r.h} window: ${JSON.stringify(b)}`);
    assert.ok(!b.covered, `${what}: ${sel} is not covered by anything`);
  }
  return r.boxes;
}

/** The top bar's controls all sit in one row: returns the bar's height. */
async function assertOneRow(page, what) {
  const r = await page.evaluate(() => {
    const bar = document.querySelector('.topbar').getBoundingClientRect();
    const items = [...document.querySelectorAll('.topbar h1, .topbar button, .topbar input, .topbar .clock')]
      .filter((e) => e.getClientRects().length > 0)
      .map((e) => {
        const b = e.getBoundingClientRect();
        return { name: e.dataset.testid ?? e.tagName, mid: b.y + b.height / 2 };
      });
    return { height: bar.height, items };
  });
  assert.ok(r.items.length >= 10, `${what}: the bar's controls are shown: ${r.items.length}`);
  const mids = r.items.map((i) => i.mid);
  const spread = Math.max(...mids) - Math.min(...mids);
  assert.ok(spread < 8, `${what}: the top bar is one row (centres within ${spread.toFixed(1)} px): ${JSON.stringify(r.items)}`);
  assert.ok(r.height < 56, `${what}: the top bar is ${r.height} px tall`);
  return r.height;
}

/**
 * The timeline's x-axis and the slider: a rewound moment's cursor on the chart
 * sits over the slider's thumb, and the chart's first and last x are the
 * slider's ends (the thumb's centre at its min and max).
 */
async function assertTimelineLinedUp(page, what) {
  await pause(page);
  const seek = page.locator('[data-testid="seek"]');
  // Back to 40 % of the run: the chart draws the moment shown as its cursor.
  const target = await seek.evaluate((el) => {
    const min = Number(el.min);
    const max = Number(el.max);
    return Math.round((min + (max - min) * 0.4) / 100) * 100;
  });
  await seek.evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, target);
  await page.locator('[data-testid="timeline-future"] .cursor').waitFor({ state: 'attached' });
  const m = await page.evaluate(() => {
    const input = document.querySelector('[data-testid="seek"]');
    const b = input.getBoundingClientRect();
    const svg = document.querySelector('[data-testid="timeline"]');
    const s = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const cursor = document.querySelector('[data-testid="timeline-future"] .cursor').getBoundingClientRect();
    const [min, max, value] = [Number(input.min), Number(input.max), Number(input.value)];
    const thumb = 16; // .timeline .seek's thumb width (styles/app.css)
    const thumbAt = (v) => b.x + thumb / 2 + ((v - min) / (max - min)) * (b.width - thumb);
    const unit = s.width / vb.width;
    return {
      min, max, value,
      cursorX: cursor.x + cursor.width / 2,
      thumbX: thumbAt(value),
      thumbMin: thumbAt(min),
      thumbMax: thumbAt(max),
      chartStart: s.x + 56 * unit, // LEFT in ui/timeline.rs
      chartEnd: s.x + (vb.width - 10) * unit, // W - RIGHT
      sliderLeft: b.x, svgLeft: s.x,
    };
  });
  assert.ok(m.max > m.min, `${what}: the run has a length: ${JSON.stringify(m)}`);
  assert.ok(Math.abs(m.cursorX - m.thumbX) <= 2, `${what}: the chart's cursor (${m.cursorX.toFixed(1)}) is over the thumb (${m.thumbX.toFixed(1)})`);
  assert.ok(Math.abs(m.thumbMin - m.chartStart) <= 1.5, `${what}: the slider starts at the chart's first moment: ${m.thumbMin.toFixed(1)} vs ${m.chartStart.toFixed(1)}`);
  assert.ok(Math.abs(m.thumbMax - m.chartEnd) <= 1.5, `${what}: the slider ends at the chart's last moment: ${m.thumbMax.toFixed(1)} vs ${m.chartEnd.toFixed(1)}`);
  await page.locator('[data-testid="seek-end"]').click();
  await page.locator('[data-testid="timeline-future"]').waitFor({ state: 'detached' });
}

const STAGE = [
  'svg.map',
  '[data-testid="quorum-status"]',
  '[data-testid="terminal-input"]',
  '[data-testid="terminal-output"]',
  '[data-testid="timeline"]',
  '[data-testid="seek"]',
  '[data-testid="play-pause"]',
];

describe('one screen', () => {
  for (const [w, h] of [[1280, 720], [1440, 900]]) {
    test(`at ${w}x${h} the map, quorum line, terminal and timeline fit with no scrolling`, { timeout: 90_000 }, async () => {
      await withPage(browser, server.url, async (page) => {
        await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 15_000 });
        // A few simulated seconds of a healthy run, as a learner first sees it.
        await setSpeed(page, '5x');
        await page.waitForFunction(() => /t\+00:(1\d|[2-5]\d)/.test(document.querySelector('[data-testid="elapsed"]').textContent), null, { timeout: 20_000 });
        await page.evaluate(() => document.activeElement?.blur());
        await assertOneRow(page, `${w}x${h}`);
        const boxes = await assertInView(page, STAGE, `${w}x${h}`);
        // The map is the largest part: at least a third of the window's width.
        assert.ok(boxes['svg.map'].width >= w / 3, `the map is ${boxes['svg.map'].width} px wide`);
        // The timeline strip is right under the map.
        assert.ok(boxes['[data-testid="timeline"]'].y - boxes['svg.map'].bottom < 200, 'the timeline is under the map');
        await shot(page, `home-${w}.png`);
        await assertTimelineLinedUp(page, `${w}x${h}`);
      }, { viewport: { width: w, height: h }, name: `layout-${w}-failure` });
    });

    test(`at ${w}x${h} a lesson's step and Back/Run/Next are in view with the map and terminal`, { timeout: 90_000 }, async () => {
      await withPage(browser, `${server.url}${LESSON}`, async (page) => {
        await page.locator('[data-testid="lesson-run"]').waitFor();
        await assertOneRow(page, `${w}x${h} lesson`);
        const lessonParts = ['[data-testid="lesson-step"]', '[data-testid="lesson-back"]', '[data-testid="lesson-run"]', '[data-testid="lesson-next"]'];
        // Step 1 is an empty world (no map yet): its parts and the terminal.
        await assertInView(page, [...lessonParts, '[data-testid="quorum-status"]', '[data-testid="terminal-input"]'], `${w}x${h} lesson step 1`);
        // Run it: machines appear, and everything is still in view.
        await page.locator('[data-testid="lesson-run"]').click();
        await page.locator('svg.map').waitFor({ timeout: 30_000 });
        // Next is aria-disabled while step 1 runs. Playwright retries a click on
        // it, and each retry after the first scrolls the button to the top,
        // middle or bottom of every scroller around it, even when it is in view
        // (the stage, scrolled away, then fails the check below, as in CI under
        // load). So the click waits until a learner could click.
        await page.locator('[data-testid="lesson-next"][aria-disabled="false"]').waitFor({ timeout: 30_000 });
        await page.locator('[data-testid="lesson-next"]').click();
        await page.locator('[data-testid="lesson-step"]', { hasText: 'Step 2' }).waitFor();
        await assertInView(page, [...lessonParts, ...STAGE], `${w}x${h} lesson step 2`);
        if (w === 1280) await shot(page, 'lesson-1280.png');
      }, { viewport: { width: w, height: h }, name: `layout-lesson-${w}-failure` });
    });
  }
});

describe('the promises panel', () => {
  test('shows by default, folds with its count in view, and is a panel for panels=', { timeout: 60_000 }, async () => {
    await withPage(browser, server.url, async (page) => {
      const panel = page.locator('[data-testid="promises-panel"]');
      assert.equal(await panel.evaluate((d) => d.open), true, 'open by default');
      const badges = page.locator('[data-testid^="promise-"]');
      assert.ok((await badges.count()) >= 8, `its badges: ${await badges.count()}`);
      assert.ok(await badges.first().isVisible());
      const summary = page.locator('[data-testid="promises-summary"]');
      assert.match(await summary.textContent(), /^all \d+ kept$/);
      await panel.locator('summary').click();
      assert.equal(await panel.evaluate((d) => d.open), false, 'folded');
      assert.ok(!(await badges.first().isVisible()), 'the badges fold away');
      assert.ok(await summary.isVisible(), 'the count stays');
      // The clock re-renders the page many times a second: it stays folded.
      await page.waitForTimeout(700);
      assert.equal(await panel.evaluate((d) => d.open), false, 'still folded after renders');
      // By keyboard too: Enter on the summary opens it again.
      await panel.locator('summary').focus();
      await page.keyboard.press('Enter');
      assert.equal(await panel.evaluate((d) => d.open), true, 'opened by Enter');
    }, { viewport: { width: 1440, height: 900 }, name: 'layout-promises-failure' });
    await withPage(browser, `${server.url}?embed=1&panels=map,terminal,promises`, async (page) => {
      await page.locator('[data-testid="promises-panel"]').waitFor();
      assert.equal(await page.locator('[data-testid="notice"]').count(), 0, 'panels=promises is accepted');
    }, { viewport: { width: 640, height: 480 }, name: 'layout-promises-embed-failure' });
  });
});

describe('the lost-writes banner', () => {
  // Lesson 001 forces a new cluster at step 12 and loses two writes; opened at
  // step 25 the banner came with it and, whole, squeezed the map at 1280x720
  // to a thumbnail. It now shows its headline, and the rest on request.
  test('is one headline that opens on request, and leaves the map its room', { timeout: 90_000 }, async () => {
    for (const [w, h] of [[1280, 720], [1440, 900]]) {
      await withPage(browser, `${server.url}?lesson=001-learner-design&step=25`, async (page) => {
        await page.locator('[data-testid="lesson-machines-etcd"]').waitFor({ timeout: 30_000 });
        const banner = page.locator('[data-testid="lost-writes"]');
        assert.match(await banner.locator('summary').textContent(), /lost 2 acknowledged writes\. Which, and why\?/);
        const items = banner.locator('li');
        assert.ok(!(await items.first().isVisible()), `${w}x${h}: the lost writes fold away`);
        const bannerBox = await banner.boundingBox();
        assert.ok(bannerBox.height <= 90, `${w}x${h}: the banner is ${bannerBox.height} px tall`);
        const map = await page.locator('svg.map').boundingBox();
        assert.ok(map.height >= 130, `${w}x${h}: the map is ${map.height} px tall`);
        await shot(page, `lost-banner-${w}.png`);
        await banner.locator('summary').click();
        assert.equal(await items.count(), 2);
        assert.match(await items.first().textContent(), /^put k1 v1 \(acknowledged at [\d:.]+\) is gone/);
        assert.ok(await items.first().isVisible(), `${w}x${h}: opened, the lost writes show`);
        // the clock re-renders the page: it stays open
        await page.waitForTimeout(500);
        assert.ok(await items.first().isVisible(), `${w}x${h}: still open after renders`);
      }, { viewport: { width: w, height: h }, name: `layout-lost-${w}-failure` });
    }
  });
});

/** Every text of the map: its rendered font size (CSS px) and what it says. */
function mapTextSizes(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.map');
    const unit = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() !== '' && t.getClientRects().length > 0)
      .map((t) => ({ text: t.textContent.trim().slice(0, 30), px: parseFloat(getComputedStyle(t).fontSize) * unit }));
  });
}

describe('a phone (390x844)', () => {
  test('the header folds, map text is 11 px or more, handles are touch-sized, actions show under the map', { timeout: 150_000 }, async () => {
    await withPage(browser, server.url, async (page) => {
      await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 15_000 });
      // Nothing is wider than the phone.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll of the page');

      // The header: play, tick and the time in view; the rest behind "Settings".
      const menu = page.locator('[data-testid="controls-menu"]');
      assert.equal(await menu.getAttribute('aria-expanded'), 'false');
      const header = await page.locator('.topbar').boundingBox();
      assert.ok(header.height <= 110, `the folded header is ${header.height} px tall`);
      for (const id of ['play-pause', 'tick', 'clock-time', 'elapsed']) {
        assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), `${id} shows`);
      }
      for (const id of ['speed', 'seed', 'reset', 'theme']) {
        assert.ok(!(await page.locator(`[data-testid="${id}"]`).isVisible()), `${id} is folded away`);
      }
      await menu.click();
      assert.equal(await menu.getAttribute('aria-expanded'), 'true');
      for (const id of ['speed', 'seed', 'reset', 'reset-empty', 'animate', 'theme']) {
        assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), `${id} shows once unfolded`);
      }
      await menu.click();

      // The map's text as rendered.
      const sizes = await mapTextSizes(page);
      assert.ok(sizes.length >= 12, `the map has its texts: ${sizes.length}`);
      const small = sizes.filter((s) => s.px < 11);
      assert.deepEqual(small, [], `every map text is 11 px or more (smallest ${Math.min(...sizes.map((s) => s.px)).toFixed(2)} px)`);

      // Link handles: 40 px or more, and a tap 18 px from the centre hits the handle.
      const handles = page.locator('g.link[role="button"]');
      assert.equal(await handles.count(), 3, 'three links');
      for (let i = 0; i < 3; i++) {
        const h = handles.nth(i);
        await h.scrollIntoViewIfNeeded();
        const m = await h.evaluate((g) => {
          const b = g.getBoundingClientRect();
          const cx = b.x + b.width / 2;
          const cy = b.y + b.height / 2;
          const hits = [[18, 0], [-18, 0], [0, 18], [0, -18]].map(([dx, dy]) => {
            const el = document.elementFromPoint(cx + dx, cy + dy);
            return el?.closest('g.link[role="button"]') === g;
          });
          return { width: b.width, height: b.height, hits, id: g.dataset.testid };
        });
        assert.ok(m.width >= 40 && m.height >= 40, `${m.id}: its hit area is ${m.width.toFixed(1)}x${m.height.toFixed(1)} px`);
        assert.deepEqual(m.hits, [true, true, true, true], `${m.id}: a tap 18 px off its centre still hits it`);
      }
      // A tap on a handle cuts the link.
      await handles.first().tap().catch(async () => handles.first().click());
      await page.locator('g.link[role="button"][data-state="cut"]').waitFor({ timeout: 5_000 });

      // A tapped machine: its actions right under the map, in view.
      await page.evaluate(() => window.scrollTo(0, 0));
      const node = page.locator('[data-testid="machine-node02"]');
      await node.scrollIntoViewIfNeeded();
      await node.click();
      const actions = page.locator('[data-testid="selected-machine"]', { hasText: 'node02' });
      await actions.waitFor();
      await page.waitForTimeout(300);
      const a = await actions.boundingBox();
      const n = await node.boundingBox();
      const map = await page.locator('svg.map').boundingBox();
      assert.ok(a.y >= map.y + map.height - 1, 'the actions are under the map');
      assert.ok(a.y - (n.y + n.height) < 320, `the actions are ${Math.round(a.y - (n.y + n.height))} px under the machine`);
      assert.ok(a.y >= 0 && a.y + 40 <= 844, `the actions' top is in view: ${JSON.stringify(a)}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'phone-390.png');

      // Seven machines: a larger map, its text still 11 px or more.
      await pause(page);
      for (let i = 4; i <= 7; i++) await type(page, `machine add node0${i} 192.168.0.6${i}`);
      await waitForOutput(page, 'machine add node07');
      await page.locator('[data-testid="machine-node07"]').waitFor();
      const seven = await mapTextSizes(page);
      assert.ok(seven.length > sizes.length, `more texts with 7 machines: ${seven.length}`);
      assert.deepEqual(seven.filter((s) => s.px < 11), [], 'every text is 11 px or more with 7 machines');
    }, { viewport: { width: 390, height: 844 }, name: 'layout-phone-failure' });
  });

  test('a lesson: nothing wider than the phone, Run and Next in view from the start', { timeout: 90_000 }, async () => {
    await withPage(browser, `${server.url}${LESSON}`, async (page) => {
      await page.locator('[data-testid="lesson-run"]').waitFor();
      await page.locator('[data-testid="lesson-run"]').click();
      await page.locator('svg.map').waitFor({ timeout: 30_000 });
      await page.evaluate(() => window.scrollTo(0, 0));
      const wide = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
      assert.ok(wide[0] <= wide[1], `the page is ${wide[0]} px wide in a ${wide[1]} px window`);
      await assertInView(page, ['[data-testid="lesson-step"]', '[data-testid="lesson-run"]', '[data-testid="lesson-next"]'], '390x844 lesson');
      await shot(page, 'phone-lesson-390.png');
    }, { viewport: { width: 390, height: 844 }, name: 'layout-phone-lesson-failure' });
  });
});
