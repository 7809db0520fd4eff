// Words a learner knows, against the built site (dist/): the quorum panel's
// "started" counts what the map shows (running apart from etcd's published), a
// learner never shows as a follower, a member added but not started says so
// with its name, a refused forecast is a warning, the glossary opens from a
// label by keyboard, and the hint line says what the world holds. Screenshots
// at 1440x900, 1280x720 and 390x844 go to e2e/out/words-*.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './helpers/site.mjs';
import { screenshot } from './helpers/browser.mjs';
import { control, waitForOutput, withPage as withPageAt } from './helpers/page.mjs';

let browser;
let server;
let failures = 0;

useSite((b, s) => {
  browser = b;
  server = s;
});

function withPage(fn, { query = '', viewport = { width: 1440, height: 900 } } = {}) {
  return withPageAt(browser, `${server.url}${query}`, fn, { viewport, name: `words-failure-${++failures}` });
}

const quorum = (page) => page.locator('[data-testid="quorum-status"]');
const facts = (page) => page.locator('[data-testid="quorum-facts"]');
const machine = (page, name) => page.locator(`[data-testid="machine-${name}"]`);
const forecast = (page) => page.locator('[data-testid="forecast"]');
const hint = (page) => page.locator('[data-testid="hint"]');

/** The value of the quorum panel's row `label`. */
async function row(page, label) {
  return page.evaluate((label) => {
    for (const dt of document.querySelectorAll('[data-testid="quorum-facts"] dt')) {
      if (dt.firstChild?.textContent === label) return dt.nextElementSibling.textContent;
    }
    return null;
  }, label);
}

/** Adds node04 with the buttons and selects it (etcd refuses adds in a member's first 5 s). */
async function addNode04(page) {
  await page.locator('[data-testid="action-add-machine"]').click();
  await machine(page, 'node04').waitFor({ timeout: 5_000 });
  await waitForOutput(page, 'machine add node04 192.168.0.64');
  await machine(page, 'node04').click();
  await page.locator('[data-testid="selected-machine"]', { hasText: 'node04' }).waitFor();
}

describe('words a learner knows', () => {
  test('a stopped voter: the quorum panel counts what the map shows', { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      await quorum(page).filter({ hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
      assert.equal(await row(page, 'started'), 'running 3 of 3 voters · published 3 of 3');
      await hint(page).filter({ hasText: '3 machines, all running etcd 3.4' }).waitFor();
      await machine(page, 'node03').click();
      await page.locator('[data-testid="action-stop"]').click();
      await page.locator('[data-testid="machine-node03"][data-state="stopped"]').waitFor({ timeout: 10_000 });
      await facts(page).filter({ hasText: 'running 2 of 3 voters' }).waitFor({ timeout: 5_000 });
      // etcd's "started": node03 published its name once, and still counts
      assert.equal(await row(page, 'started'), 'running 2 of 3 voters · published 3 of 3');
      assert.match(await row(page, 'voters'), /^3: .*node03 \(stopped\)/);
      const running = await page.locator('[data-testid^="machine-"]:not([data-state="stopped"]):not([data-state="exited"])').count();
      assert.equal(running, 2, 'the map shows two running');
      assert.match(await machine(page, 'node03').locator('text.name').textContent(), /node03 ■ stopped/);
      await hint(page).filter({ hasText: '3 machines, 2 running etcd 3.4' }).waitFor();
      // the "started" label's glossary link, opened from the keyboard
      await facts(page).locator('[data-testid="gloss-quorum"] button').focus();
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement.closest('[data-testid^="gloss-"]')?.dataset.testid);
      assert.equal(focused, 'gloss-started');
      await page.keyboard.press('Enter');
      const def = facts(page).locator('[data-testid="gloss-started"] [data-testid="gloss-definition"]');
      await def.waitFor();
      assert.match(await def.textContent(), /published its name/);
      await screenshot(page, 'words-stopped-1440x900.png');
      await page.keyboard.press('Escape');
      await def.waitFor({ state: 'detached' });
      // Space on a glossary button opens it and leaves the clock alone
      const playing = await page.locator('[data-testid="play-pause"]').getAttribute('aria-pressed');
      await page.keyboard.press('Space');
      await def.waitFor();
      assert.equal(await page.locator('[data-testid="play-pause"]').getAttribute('aria-pressed'), playing);
    });
  });

  test('a learner: not started with its name, a refused forecast, never a follower', { timeout: 120_000 }, async () => {
    await withPage(
      async (page) => {
        await quorum(page).filter({ hasText: 'quorum ok' }).waitFor({ timeout: 10_000 });
        await addNode04(page);
        await page.locator('[data-testid="action-add-learner"]').hover();
        const ok = forecast(page).locator('p[data-outcome="ok"]', { hasText: 'adding a learner does not change the quorum' });
        await ok.waitFor({ timeout: 15_000 });
        assert.match(await ok.getAttribute('class'), /\bok\b/);
        await page.locator('[data-testid="action-add-learner"]').click();
        await waitForOutput(page, 'added to cluster');
        // added, not started: named, never a bare ID
        await facts(page).filter({ hasText: '1: node04 (not started)' }).waitFor({ timeout: 5_000 });
        assert.equal(await row(page, 'learners'), '1: node04 (not started)');
        const node = machine(page, 'node04');
        assert.match(await node.locator('text.name').textContent(), /node04 □ not started/);
        assert.match(await node.textContent(), /node04 [0-9a-f]{16}/);
        assert.match(await node.textContent(), /learner · not started/);
        // promoting it now: etcd refuses (its match is 0), a warning
        await page.locator('[data-testid="action-promote"]').hover();
        const refused = forecast(page).locator('p[data-outcome="refused"]', { hasText: 'promote refused' });
        await refused.waitFor({ timeout: 5_000 });
        assert.match(await refused.getAttribute('class'), /\bwarn\b/);
        const colour = await refused.evaluate((p) => getComputedStyle(p).color);
        const okColour = await page.evaluate(() => {
          const probe = document.createElement('span');
          probe.className = 'ok';
          document.body.append(probe);
          const c = getComputedStyle(probe).color;
          probe.remove();
          return c;
        });
        assert.notEqual(colour, okColour, 'a refusal is not coloured as fine');
        await screenshot(page, 'words-learner-refused-1280x720.png');
        // every change of the map from its start on: never a follower
        await page.evaluate(() => {
          window.wordsSeen = [];
          const look = () => {
            const el = document.querySelector('[data-testid="machine-node04"]');
            if (el) window.wordsSeen.push(`${el.dataset.state}|${el.querySelector('text.name')?.textContent}`);
          };
          window.wordsLook = new MutationObserver(look);
          const nodes = document.querySelector('svg.map .nodes');
          window.wordsLook.observe(nodes, { subtree: true, childList: true, attributes: true, characterData: true });
          look();
        });
        await page.mouse.move(0, 0);
        await page.locator('[data-testid="action-start"]').click();
        await page.locator('[data-testid="machine-node04"][data-state="learner"]').waitFor({ timeout: 20_000 });
        await page.locator('[data-testid^="learner-"]', { hasText: 'promote would be accepted' }).waitFor({ timeout: 20_000 });
        const seen = await page.evaluate(() => {
          window.wordsLook.disconnect();
          return window.wordsSeen;
        });
        assert.ok(seen.length >= 2, seen.join(", "));
        assert.deepEqual(seen.filter((s) => /follower/.test(s)), [], seen.join(', '));
        assert.ok(seen.some((s) => s.startsWith('learner|node04 ◇ learner')), seen.slice(-3).join(', '));
        assert.equal(await row(page, 'learners'), '1: node04');
      },
      { viewport: { width: 1280, height: 720 } },
    );
  });

  test('the hint in an empty world, and the map legend by keyboard on a phone', { timeout: 60_000 }, async () => {
    await withPage(
      async (page) => {
        await machine(page, 'node01').waitFor({ timeout: 10_000 });
        // the map's words: the key unfolds, and each state's glossary link
        // opens from the keyboard
        await page.locator('[data-testid="map-key"] > summary').focus();
        await page.keyboard.press('Enter');
        const legend = page.locator('[data-testid="map-legend"]');
        await legend.locator('[data-testid="gloss-follower"] button').focus();
        await page.keyboard.press('Enter');
        const def = legend.locator('[data-testid="gloss-definition"]');
        await def.waitFor();
        assert.match(await def.textContent(), /^follower: /);
        // it stays inside the screen
        const box = await def.boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
        await def.scrollIntoViewIfNeeded();
        await screenshot(page, 'words-legend-390x844.png');
        await page.keyboard.press('Escape');
        await (await control(page, 'reset-empty')).click();
        await page.locator('.empty-map').waitFor();
        await hint(page).filter({ hasText: 'An empty world' }).waitFor();
        assert.match(await hint(page).textContent(), /First step: type machine add node01 192\.168\.0\.61/);
        assert.equal(await legend.count(), 0, 'no legend without machines');
        await screenshot(page, 'words-empty-390x844.png');
      },
      { viewport: { width: 390, height: 844 } },
    );
  });
});
