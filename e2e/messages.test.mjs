// Raft happening on the map, against the built site (E2E_DIST or dist/):
// messages in flight at every speed (the share of animation frames with a dot
// between two machines at 1x and 0.1x is measured and printed), each dot's
// kind, election timers that drain with no leader, a vote tally, quorum on
// the map, the event banner and "pause on", dropped messages, and the
// message inspector. Screenshots go to e2e/out/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './helpers/site.mjs';
import { screenshot } from './helpers/browser.mjs';
import { pause, setSpeed, type, withPage as withPageAt } from './helpers/page.mjs';

let browser;
let server;
let failures = 0;

useSite((b, s) => {
  browser = b;
  server = s;
});

function withPage(fn, { query = '', viewport = { width: 1440, height: 900 } } = {}) {
  return withPageAt(browser, `${server.url}${query}`, fn, { viewport, name: `messages-failure-${++failures}` });
}

const KINDS = new Set([
  'heartbeat', 'heartbeat-response', 'append', 'append-response', 'vote', 'vote-response',
  'prevote', 'prevote-response', 'snapshot', 'other',
]);

/**
 * Samples `ms` of animation frames: for each, whether some message dot is
 * between two machines (its centre outside every machine box and inside the
 * map). Returns { frames, withDot, kinds }.
 */
async function frameShare(page, ms) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        const boxes = () =>
          [...document.querySelectorAll('[data-testid^="machine-"] rect')].map((r) => r.getBoundingClientRect());
        const map = document.querySelector('svg.map').getBoundingClientRect();
        let frames = 0;
        let withDot = 0;
        const kinds = {};
        const start = performance.now();
        const frame = (t) => {
          const bs = boxes();
          let seen = false;
          for (const d of document.querySelectorAll('[data-testid="msg"]')) {
            const r = d.getBoundingClientRect();
            const op = Number(getComputedStyle(d).opacity);
            if (r.width === 0 || op < 0.2) continue;
            const x = r.x + r.width / 2;
            const y = r.y + r.height / 2;
            const inside = (b) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;
            if (!inside(map) || bs.some(inside)) continue;
            seen = true;
            const k = d.getAttribute('data-kind');
            kinds[k] = (kinds[k] ?? 0) + 1;
          }
          frames += 1;
          if (seen) withDot += 1;
          if (t - start < ms) requestAnimationFrame(frame);
          else resolve({ frames, withDot, kinds });
        };
        requestAnimationFrame(frame);
      }),
    ms,
  );
}

describe('messages on the map', () => {
  test('a healthy three-member cluster has a message in flight in most frames, at 1x and at 0.1x', async () => {
    await withPage(async (page) => {
      const shares = {};
      for (const speed of ['1', '0.1']) {
        await setSpeed(page, speed);
        await page.waitForTimeout(1200);
        const s = await frameShare(page, 6000);
        shares[speed] = s;
        for (const k of Object.keys(s.kinds)) assert.ok(KINDS.has(k), `unknown kind ${k}`);
        assert.ok(s.frames > 100, `too few frames sampled: ${s.frames}`);
        // a line the README quotes
        console.log(`# frames with a message in flight at ${speed}x: ${s.withDot}/${s.frames} = ${(100 * s.withDot / s.frames).toFixed(1)}% (kinds ${JSON.stringify(s.kinds)})`);
      }
      for (const [speed, s] of Object.entries(shares)) {
        assert.ok(s.withDot / s.frames > 0.5, `at ${speed}x only ${s.withDot} of ${s.frames} frames had a dot in flight`);
      }
      assert.ok(shares['1'].kinds.heartbeat > 0 && shares['1'].kinds['heartbeat-response'] > 0, 'heartbeats and their replies fly');
      await screenshot(page, 'messages-healthy-1440.png');
    });
  });

  test('the legend names each kind of dot', async () => {
    await withPage(async (page) => {
      const legend = page.locator('[data-testid="msg-legend"]');
      for (const word of ['heartbeat', 'append entries', 'vote request', 'pre-vote request', 'snapshot', 'dropped']) {
        assert.ok((await legend.textContent()).includes(word), word);
      }
    });
  });

  test('an election: timers drain, a vote tally shows, the banner announces the new leader, and "pause on" stops there', async () => {
    await withPage(async (page) => {
      await setSpeed(page, '0.5');
      await page.locator('[data-testid="pause-on-leader"]').check();
      const leftOf = (name) => page.locator(`[data-testid="timer"][data-machine="${name}"]`).getAttribute('data-left').then(Number);
      // kill -9: a leader stopped by SIGTERM hands its leadership over first, as real etcd does
      await type(page, 'node01$ kill -9 etcd');
      await page.locator('[data-testid="map-quorum"][data-ok="false"]').waitFor({ timeout: 20_000 });
      // losing the leader is a leader change: the clock pauses there first
      const first = page.locator('[data-testid="map-event"][data-paused="true"]');
      await first.waitFor({ timeout: 5_000 });
      assert.match(await first.textContent(), /No leader \(term 3\); quorum lost/);
      await page.locator('[data-testid="play-pause"]').click();
      // with no leader the followers' timers run down
      const before = Math.min(await leftOf('node02'), await leftOf('node03'));
      await page.waitForTimeout(700);
      const later = Math.min(await leftOf('node02'), await leftOf('node03'));
      assert.ok(later < before || before < 0.2, `timers did not drain: ${before} -> ${later}`);
      // someone campaigns: the tally shows, then the banner and the pause
      await page.locator('[data-testid="votes"]').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'election-in-progress-1440.png');
      const tally = await page.locator('[data-testid="votes"]').first().textContent();
      assert.match(tally, /(pre-)?votes \d of 3 · 2 needed/);
      const banner = page.locator('[data-testid="map-event"][data-kind="leader"]');
      await banner.waitFor({ timeout: 30_000 });
      assert.match(await banner.textContent(), /node0[23] is the leader, term \d+; quorum regained/);
      await page.locator('[data-testid="map-event"][data-paused="true"]').waitFor({ timeout: 5_000 });
      assert.equal(await page.locator('[data-testid="play-pause"]').getAttribute('aria-pressed'), 'false', 'the clock paused on the new leader');
      await screenshot(page, 'election-paused-1440.png');
    });
  });

  test('quorum lost shows on the map: the quorum line, the unreached voters, the banner', async () => {
    await withPage(async (page) => {
      await setSpeed(page, '1');
      await page.locator('[data-testid="pause-on-quorum"]').check();
      await type(page, 'node02$ kill -9 etcd');
      await type(page, 'node03$ kill -9 etcd');
      await page.locator('[data-testid="map-event"][data-kind="quorum-lost"][data-paused="true"]').waitFor({ timeout: 20_000 });
      const line = page.locator('[data-testid="map-quorum"]');
      assert.equal(await line.getAttribute('data-ok'), 'false');
      assert.match(await line.textContent(), /2 of 3 voters needed, 1 reached ✖/);
      assert.equal(await page.locator('[data-testid="reach-node02"]').getAttribute('data-reached'), 'false');
      assert.equal(await page.locator('[data-testid="reach-node01"]').getAttribute('data-reached'), 'true');
      assert.equal(await page.locator('[data-testid="play-pause"]').getAttribute('aria-pressed'), 'false', 'the clock paused on quorum lost');
      await screenshot(page, 'quorum-lost-1440.png');
    });
  });

  test('a cut link drops messages: their dots stop part-way, marked', async () => {
    await withPage(async (page) => {
      await setSpeed(page, '1');
      await type(page, 'net cut node01 node02');
      const dropped = page.locator('[data-testid="msg"][data-dropped="true"]').first();
      await dropped.waitFor({ timeout: 10_000 });
      assert.equal(await dropped.locator('.drop-mark').count(), 1);
    });
  });

  test('the inspector shows a message: picked from the paused list or by clicking its dot', async () => {
    await withPage(async (page) => {
      await pause(page);
      await page.locator('[data-testid="msg-list"] summary').click();
      const item = page.locator('[data-testid="msg-item"]').first();
      await item.click();
      const card = page.locator('[data-testid="inspector"]');
      const text = await card.textContent();
      for (const field of ['from', 'to', 'term', 'index', 'entries', 'commit', 'sent']) assert.ok(text.includes(field), field);
      assert.match(text, /Msg(Heartbeat|Append|RequestVote|RequestPreVote)(Response)?/);
      await page.locator('[data-testid="inspector"] button').click();
      assert.equal(await card.count(), 0);
      // one tick: its messages fly as still dots; click one
      await page.locator('[data-testid="tick"]').click();
      const dot = page.locator('[data-testid="msg"]').first();
      await dot.waitFor();
      // a still dot flies for half a second by a CSS animation: hold it where
      // it is, so the click lands on the dot on a slow machine too (the click
      // itself is a real one, hit-tested by the browser)
      await dot.evaluate((el) => el.getAnimations().forEach((a) => a.pause()));
      // dots of one tick can overlap (a heartbeat and its reply): the browser's
      // hit test decides which one a click at the dot's centre reaches, so the
      // inspector must show that one
      const box = await dot.boundingBox();
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      const hit = await page.evaluate(([px, py]) => {
        const el = document.elementFromPoint(px, py)?.closest('[data-testid="msg"]');
        return el?.getAttribute('data-kind') ?? null;
      }, [x, y]);
      assert.ok(hit, 'a message dot under the click point');
      await page.mouse.click(x, y);
      await card.waitFor();
      assert.equal(await card.getAttribute('data-kind'), hit);
      await screenshot(page, 'inspector-1440.png');
    });
  });
});
