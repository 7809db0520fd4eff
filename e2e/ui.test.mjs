// The teaching UI against the built site (dist/): a typed walkthrough equals the
// runner's transcript, links cut from the map move quorum and states, a learner
// is added, started and promoted with buttons alone, ten simulated minutes at
// 100x, a hidden page's clock standing still, bad input in every field, the
// keys. Screenshots go to e2e/out/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite } from './helpers/site.mjs';
import { ROOT, screenshot } from './helpers/browser.mjs';
import {
  OUTPUT,
  elapsedSeconds,
  emulateHidden,
  firstDifference,
  pause,
  recordElapsed,
  recordedElapsed,
  runnerTranscript,
  setSpeed,
  terminalText,
  type,
  typedLines,
  waitForOutput,
  withPage as withPageAt,
} from './helpers/page.mjs';

let browser;
let server;
let failures = 0;

useSite((b, s) => {
  browser = b;
  server = s;
});

function withPage(fn, { query = '', name = `ui-failure-${++failures}` } = {}) {
  return withPageAt(browser, `${server.url}${query}`, fn, { name });
}

const quorum = (page) => page.locator('[data-testid="quorum-status"]');
const machine = (page, name) => page.locator(`[data-testid="machine-${name}"]`);

describe('the teaching UI', () => {
  test('opens on a healthy three-member cluster', { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      for (const n of ['node01', 'node02', 'node03']) {
        const state = await machine(page, n).getAttribute('data-state');
        assert.ok(['leader', 'follower'].includes(state), `${n} is ${state}`);
      }
      assert.equal(await page.locator('[data-testid^="machine-"][data-state="leader"]').count(), 1);
      assert.equal(await page.locator('[data-testid="member-table"] tbody tr').count(), 3);
      assert.equal(await page.locator('[data-testid="status-table"] tbody tr').count(), 3);
      assert.ok((await page.locator('[data-testid="log-row"]').count()) > 0, 'logs are shown');
      await screenshot(page, 'healthy.png');
    });
  });

  test('seed 000 typed into a paused page prints what the headless runner prints', { timeout: 180_000 }, async () => {
    const path = join(ROOT, 'tests/scripts/seed-000.sh');
    const script = await readFile(path, 'utf8');
    const expected = runnerTranscript(path);
    await withPage(
      async (page) => {
        // Pause first, then a new empty world: it starts paused at time 0, as the runner does.
        await pause(page);
        await page.locator('[data-testid="reset-empty"]').click();
        await page.locator('.empty-map').waitFor();
        assert.equal(await elapsedSeconds(page), 0);
        for (const line of typedLines(script)) await type(page, line);
        const got = await terminalText(page);
        assert.ok(got === expected, `the page differs from the runner at ${firstDifference(got, expected)}`);
      },
      { name: 'seed-000' },
    );
  });

  test('cutting links on the map moves quorum and states, and healing brings them back', { timeout: 120_000 }, async () => {
    await withPage(async (page) => {
      await quorum(page).filter({ hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      await setSpeed(page, '5');
      const pairs = [['node01', 'node02'], ['node01', 'node03'], ['node02', 'node03']];
      for (const [a, b] of pairs) {
        const link = page.locator(`[data-testid="link-${a}-${b}"]`);
        assert.equal(await link.getAttribute('data-state'), 'up');
        await link.click();
        await page.locator(`[data-testid="link-${a}-${b}"][data-state="cut"]`).waitFor({ timeout: 5_000 });
        await waitForOutput(page, `net cut ${a} ${b}`);
      }
      // No two machines can talk: the leader steps down (CheckQuorum) and nobody wins.
      await quorum(page).filter({ hasText: 'quorum lost' }).waitFor({ timeout: 20_000 });
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid^="machine-"][data-state="leader"]').length === 0,
        null,
        { timeout: 20_000 },
      );
      await screenshot(page, 'quorum-lost.png');
      await page.locator('[data-testid="link-node01-node02"]').click();
      await page.locator('[data-testid="link-node01-node02"][data-state="up"]').waitFor({ timeout: 5_000 });
      await waitForOutput(page, 'net heal node01 node02');
      await quorum(page).filter({ hasText: 'quorum ok' }).waitFor({ timeout: 30_000 });
      const leader = await page.locator('[data-testid^="machine-"][data-state="leader"]').getAttribute('data-testid');
      assert.ok(['machine-node01', 'machine-node02'].includes(leader), `the leader is on the healed side: ${leader}`);
      // Shift-click cuts one way only.
      await page.locator('[data-testid="link-node01-node02"]').click({ modifiers: ['Shift'] });
      await page.locator('[data-testid="link-node01-node02"][data-state="one-way"]').waitFor({ timeout: 5_000 });
      await waitForOutput(page, 'net cut node01->node02');
    });
  });

  test('a learner is added, started and promoted with the buttons alone', { timeout: 120_000 }, async () => {
    await withPage(async (page) => {
      await quorum(page).filter({ hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      await page.locator('[data-testid="action-add-machine"]').click();
      await machine(page, 'node04').waitFor({ timeout: 5_000 });
      await waitForOutput(page, 'machine add node04 192.168.0.64');
      await machine(page, 'node04').click();
      await page.locator('[data-testid="selected-machine"]', { hasText: 'node04' }).waitFor();
      // etcd refuses a member add until every voter has been connected for 5 s;
      // the forecast says so, and then that the learner leaves the quorum alone.
      await page.locator('[data-testid="action-add-learner"]').hover();
      await page
        .locator('[data-testid="forecast"]', { hasText: 'adding a learner does not change the quorum' })
        .waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="action-add-learner"]').click();
      await waitForOutput(page, 'added to cluster');
      await page.locator('[data-testid="action-start"]').click();
      await page.locator('[data-testid="machine-node04"][data-state="learner"]').waitFor({ timeout: 20_000 });
      await page.locator('[data-testid^="learner-"]').waitFor({ timeout: 10_000 });
      await screenshot(page, 'learner-catching-up.png');
      await page.locator('[data-testid^="learner-"]', { hasText: 'promote would be accepted' }).waitFor({ timeout: 20_000 });
      await page.locator('[data-testid="action-promote"]').click();
      await waitForOutput(page, 'promoted in cluster');
      await page
        .locator('[data-testid="machine-node04"]:is([data-state="follower"], [data-state="leader"])')
        .waitFor({ timeout: 20_000 });
      const text = await terminalText(page);
      assert.match(text, /etcdctl member add node04 --peer-urls=http:\/\/192\.168\.0\.64:2380 --learner/);
      assert.match(text, /node04\$ etcd --name node04 .*--initial-cluster-state existing/);
      assert.match(text, /etcdctl member promote [0-9a-f]+/);
    });
  });

  test('keeps working after ten simulated minutes at 100x', { timeout: 240_000 }, async () => {
    await withPage(async (page) => {
      await setSpeed(page, '100x');
      await page.waitForFunction(
        () => /t\+(\d+):/.exec(document.querySelector('[data-testid="elapsed"]').textContent)?.[1] >= 10,
        null,
        { timeout: 200_000, polling: 500 },
      );
      assert.ok((await elapsedSeconds(page)) >= 600);
      await pause(page);
      await type(page, 'etcdctl put after ten-minutes');
      await type(page, 'etcdctl get after --print-value-only');
      await waitForOutput(page, 'ten-minutes');
      await quorum(page).filter({ hasText: 'quorum ok' }).waitFor({ timeout: 5_000 });
      await screenshot(page, 'after-ten-minutes.png');
    });
  });

  test('a hidden page stops its clock and goes on from there when shown', { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      await setSpeed(page, '100');
      await emulateHidden(page, true);
      await page.waitForTimeout(200); // a frame asked for before may still land
      const before = await elapsedSeconds(page);
      await page.waitForTimeout(1_000);
      assert.equal(await elapsedSeconds(page), before, 'the clock stood still while hidden');
      await recordElapsed(page);
      await emulateHidden(page, false);
      await page.waitForTimeout(500);
      const changes = await recordedElapsed(page);
      assert.ok(changes.length > 0, 'the clock runs again when shown');
      // One frame at 100x plays about 1.7 s; the second hidden is not played.
      const first = changes[0][1] - before;
      assert.ok(first < 10, `the first frame shown played ${first.toFixed(1)} s`);
    });
  });

  test('bad input in the terminal, seed and speed fields changes nothing', { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      await pause(page);
      const before = await elapsedSeconds(page);
      await setSpeed(page, 'fast');
      await page.locator('[data-testid="notice"]', { hasText: 'speed' }).waitFor();
      await setSpeed(page, '1000');
      await page.locator('[data-testid="notice"]', { hasText: 'from 0.1 to 100' }).waitFor();
      const lines = (await terminalText(page)).split('\n').length;
      await page.locator('[data-testid="seed"]').fill('-3');
      await page.locator('[data-testid="reset"]').click();
      await page.locator('[data-testid="notice"]', { hasText: 'seed' }).waitFor();
      assert.equal((await terminalText(page)).split('\n').length, lines, 'the world was not reset');
      await type(page, 'etcdctl member remove zzz');
      await type(page, 'net cut node01');
      await type(page, 'echo "unclosed');
      const text = await terminalText(page);
      for (const cmd of ['etcdctl member remove zzz', 'net cut node01', 'echo "unclosed']) {
        const after = text.slice(text.lastIndexOf(`$ ${cmd}`) + cmd.length + 2).split('\n')[1] ?? '';
        assert.ok(after.length > 0, `${cmd} printed an error`);
      }
      assert.ok((await page.locator(`${OUTPUT} .err`).count()) >= 3, 'errors are marked as standard error');
      for (const n of ['node01', 'node02', 'node03']) {
        assert.notEqual(await machine(page, n).getAttribute('data-state'), 'stopped');
      }
      assert.equal(await page.locator('[data-testid^="link-"][data-state="cut"]').count(), 0, 'no link was cut');
      assert.equal(await elapsedSeconds(page), before, 'paused: no time passed');
      // The speed stayed 1x: one real second of play moves the clock about one simulated second.
      assert.equal(await page.locator('[data-testid="speed"]').inputValue(), '1x');
      await page.locator('[data-testid="play-pause"]').click();
      await page.waitForTimeout(1000);
      await pause(page);
      const ran = (await elapsedSeconds(page)) - before;
      assert.ok(ran > 0.5 && ran < 2, `1x kept: ${ran} simulated s in 1 real s`);
    });
  });

  test('message dots fly along the links, playing and paused, never a compositor layer each while playing', { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      const button = page.locator('[data-testid="animate"]');
      if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
      // Each dot (src/ui/flights.rs): where it is (its transform), where a
      // still one lands (--x1/--y1), its opacity and what its animations move.
      const dots = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('[data-testid="msg"]')].map((d) => {
            const s = getComputedStyle(d);
            const m = new DOMMatrixReadOnly(s.transform === 'none' ? undefined : s.transform);
            const attr = d.transform?.baseVal?.consolidate()?.matrix;
            return {
              x: s.transform === 'none' && attr ? attr.e : m.e,
              y: s.transform === 'none' && attr ? attr.f : m.f,
              x1: parseFloat(s.getPropertyValue('--x1')),
              y1: parseFloat(s.getPropertyValue('--y1')),
              opacity: parseFloat(s.opacity) * parseFloat(s.fillOpacity),
              kind: d.getAttribute('data-kind'),
              animations: d.getAnimations().map((a) => a.playState),
            };
          }),
        );
      // Playing: the page moves each dot itself (no CSS animation, so no
      // compositor layer per dot), by its transform attribute, not faded.
      let playing = [];
      for (let i = 0; i < 100 && playing.length === 0; i++) playing = await dots();
      assert.ok(playing.length > 0, 'a playing healthy cluster sends messages');
      for (const d of playing) {
        assert.deepEqual(d.animations, [], JSON.stringify(d));
        assert.ok(d.opacity > 0.5 && d.x > 0 && d.y > 0, JSON.stringify(d));
      }
      // Paused, one tick: the dots fly their whole way by CSS and fade at its end.
      await pause(page);
      await page.locator('[data-testid="tick"]').click();
      await page.locator('[data-testid="msg"].still').first().waitFor();
      await page.waitForTimeout(1500); // past a request's 0.5 s and its reply's
      const landed = await dots();
      assert.ok(landed.length > 0, 'a tick of a healthy cluster sends messages');
      for (const d of landed) {
        assert.ok(d.animations.every((p) => p === 'finished'), JSON.stringify(d));
        assert.ok(Math.abs(d.x - d.x1) < 0.5 && Math.abs(d.y - d.y1) < 0.5, JSON.stringify(d));
        assert.ok(d.opacity < 0.01, JSON.stringify(d));
      }
    });
  });

  test('space plays and pauses, "." runs one tick, tab completes', { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      await pause(page);
      await page.locator('h1').click();
      const t0 = await elapsedSeconds(page);
      await page.keyboard.press('.');
      await page.waitForFunction((t) => {
        const m = /t\+(\d+):(\d+)\.(\d)/.exec(document.querySelector('[data-testid="elapsed"]').textContent);
        return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 10 > t;
      }, t0);
      assert.equal(Math.round((await elapsedSeconds(page)) * 10), Math.round(t0 * 10) + 1);
      await page.keyboard.press(' ');
      await page.locator('[data-testid="play-pause"][aria-pressed="true"]').waitFor();
      await page.keyboard.press(' ');
      await page.locator('[data-testid="play-pause"][aria-pressed="false"]').waitFor();
      const input = page.locator('[data-testid="terminal-input"]');
      await input.fill('etcdctl mem');
      await input.press('Tab');
      assert.equal(await input.inputValue(), 'etcdctl member ');
    });
  });
});
