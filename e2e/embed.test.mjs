// Embed mode against the built site (dist/): the example page under static/
// drives the framed playground through postMessage and hears its events
// (ready, leader changed, quorum lost and regained, command output); the frame
// shows only the panels the example asks for, fits its 640x480 frame with the
// prompt in view and hides seed/Reset/Empty world unless controls= asks for
// them (a bad controls= value is named in the notice); messages from any window other
// than the parent (the frame itself, a page that is not framed) run nothing,
// and `origin=` keeps the bridge to that origin alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './helpers/site.mjs';
import { screenshot, watchErrors } from './helpers/browser.mjs';
import { INPUT, OUTPUT, terminalText, withPage } from './helpers/page.mjs';

let browser;
let server;

useSite((b, s) => {
  browser = b;
  server = s;
});

const VIEWPORT = { width: 1280, height: 1000 };

/** Opens the example page; returns { page, frame, errors, context }. */
async function openExample() {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}static/embed-example.html`, { waitUntil: 'load' });
  const frame = page.frameLocator('#playground');
  await frame.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
  return { page, frame, errors, context };
}

/** Waits for an event from the playground that `pred` (a function source) accepts; returns it. */
async function waitForEvent(page, pred, timeout = 15_000) {
  const handle = await page.waitForFunction(
    (src) => {
      const p = new Function('e', `return (${src})(e)`);
      return window.events.find((e) => p(e)) ?? false;
    },
    pred.toString(),
    { timeout },
  );
  return handle.jsonValue();
}

/** The output events for commands whose echo ends with `command`. */
function outputsOf(page, command) {
  return page.evaluate(
    (command) => window.events.filter((e) => e.type === 'output' && e.command.endsWith(command)),
    command,
  );
}

describe('embed mode and the postMessage bridge', () => {
  test('the example page drives the playground and hears its events', { timeout: 60_000 }, async () => {
    const { page, frame, errors, context } = await openExample();
    try {
      const ready = await waitForEvent(page, (e) => e.type === 'ready');
      assert.deepEqual(ready, { source: 'quorum-playground', type: 'ready' });
      const leader = await waitForEvent(page, (e) => e.type === 'leader-changed' && e.leader !== null);
      assert.match(leader.leader, /^node0[123]$/);
      assert.ok(leader.term >= 1, `term ${leader.term}`);
      // Every event says where it comes from.
      assert.ok(await page.evaluate(() => window.events.every((e) => e.source === 'quorum-playground')));

      // Only the panels the example asks for: controls, map, terminal, quorum.
      await frame.locator('[data-testid="play-pause"]').waitFor();
      await frame.locator('[data-testid="machine-node01"]').waitFor();
      await frame.locator('[data-testid="quorum-status"]').waitFor();
      for (const absent of ['logs-panel', 'member-table', 'status-table', 'seek', 'timeline', 'share', 'copy-link', 'lesson-list', 'lesson-panel']) {
        assert.equal(await frame.locator(`[data-testid="${absent}"]`).count(), 0, `the frame has no ${absent}`);
      }
      assert.equal(await frame.locator('.hint').count(), 0, 'no hint line in embed mode');
      // A student gets the clock, not a way to throw the course's world away.
      for (const hidden of ['seed', 'reset', 'reset-empty']) {
        assert.equal(await frame.locator(`[data-testid="${hidden}"]`).count(), 0, `no ${hidden} without controls=`);
      }
      // The frame is 640x480 and everything in it fits: the map, the quorum
      // line and the terminal's prompt are inside it, nothing scrolled.
      const size = await page.locator('#playground').evaluate((f) => [f.clientWidth, f.clientHeight]);
      assert.deepEqual(size, [640, 480], 'the example frames the playground at 640x480');
      const inFrame = await frame.locator('body').evaluate(() => {
        const box = (sel) => {
          const b = document.querySelector(sel)?.getBoundingClientRect();
          return b && { x: b.x, y: b.y, right: b.right, bottom: b.bottom };
        };
        return {
          w: innerWidth, h: innerHeight, scrollY: window.scrollY,
          boxes: Object.fromEntries(['[data-testid="terminal-input"]', 'svg.map', '[data-testid="quorum-status"]', '[data-testid="play-pause"]'].map((s) => [s, box(s)])),
        };
      });
      assert.equal(inFrame.scrollY, 0);
      for (const [sel, b] of Object.entries(inFrame.boxes)) {
        assert.ok(b && b.x >= 0 && b.y >= 0 && b.right <= inFrame.w + 0.5 && b.bottom <= inFrame.h + 0.5, `${sel} is inside the ${inFrame.w}x${inFrame.h} frame: ${JSON.stringify(b)}`);
      }
      assert.equal(await frame.locator('.app.embed').count(), 1);

      await page.evaluate(() => window.runCommand('etcdctl put greeting hello'));
      const put = await waitForEvent(page, (e) => e.type === 'output' && e.command.endsWith('etcdctl put greeting hello'));
      assert.deepEqual(put.lines, ['OK']);
      await frame.locator(OUTPUT, { hasText: 'etcdctl put greeting hello' }).waitFor();
      await page.evaluate(() => window.runCommand('etcdctl get greeting'));
      const get = await waitForEvent(page, (e) => e.type === 'output' && e.command.endsWith('etcdctl get greeting'));
      assert.deepEqual(get.lines, ['greeting', 'hello']);
      // The example lists events as text.
      await page.locator('#events li', { hasText: '"lines":["OK"]' }).waitFor({ state: 'attached' });

      // Two of three members cut off: quorum is lost; healing brings it back.
      await page.evaluate(() => window.runCommand('net isolate node01'));
      await page.evaluate(() => window.runCommand('net isolate node02'));
      await waitForEvent(page, (e) => e.type === 'quorum-lost', 20_000);
      await frame.locator('[data-testid="quorum-status"]', { hasText: 'quorum lost' }).waitFor();
      const lostAt = await page.evaluate(() => window.events.findIndex((e) => e.type === 'quorum-lost'));
      assert.equal(
        await page.evaluate(() => window.events.filter((e) => e.type === 'quorum-regained').length),
        0,
        'no quorum-regained before the heal',
      );
      await page.evaluate(() => window.runCommand('net heal'));
      const regained = await waitForEvent(page, (e) => e.type === 'quorum-regained', 30_000);
      assert.ok(regained);
      const regainedAt = await page.evaluate(() => window.events.findIndex((e) => e.type === 'quorum-regained'));
      assert.ok(regainedAt > lostAt, 'regained after lost');
      await frame.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 30_000 });
      await waitForEvent(page, (e) => e.type === 'output' && e.command.endsWith('net heal'));
      const commands = await page.evaluate(() => window.events.filter((e) => e.type === 'output').map((e) => e.command));
      assert.deepEqual(
        commands.map((c) => c.replace(/^\S*\$ /, '')),
        ['etcdctl put greeting hello', 'etcdctl get greeting', 'net isolate node01', 'net isolate node02', 'net heal'],
        'one output event per command, in order, nothing from before',
      );

      // The example's buttons send the same messages.
      await page.locator('button[data-run="etcdctl get greeting"]').click();
      await page.waitForFunction(() => window.events.filter((e) => e.type === 'output' && e.command.endsWith('etcdctl get greeting')).length === 2);
      // Pause and play from the host.
      await page.locator('button[data-send="pause"]').click();
      await frame.locator('[data-testid="play-pause"][aria-pressed="false"]').waitFor();
      await page.locator('button[data-send="play"]').click();
      await frame.locator('[data-testid="play-pause"][aria-pressed="true"]').waitFor();
      // Speed and seek from the host.
      const send = (message) => page.evaluate((m) => document.getElementById('playground').contentWindow.postMessage(m, '*'), message);
      await send({ type: 'quorum-playground:speed', speed: 10 });
      await page.waitForFunction(() => parseFloat(document.getElementById('playground').contentDocument.querySelector('[data-testid="speed"]').value) === 10);
      const outputsBefore = (await outputsOf(page, '')).length;
      // 3 s is where the boot script ends, before any command the host typed
      // (a later moment could fall inside one, and show when it was typed).
      await send({ type: 'quorum-playground:seek', ms: 3000 });
      await frame.locator('[data-testid="elapsed"]', { hasText: 't+00:03.0' }).waitFor();
      await frame.locator('[data-testid="play-pause"][aria-pressed="false"]').waitFor();
      assert.ok(!(await frame.locator(OUTPUT).textContent()).includes('greeting'), 'moment 3 s is before the first command');
      await page.waitForTimeout(300);
      assert.equal((await outputsOf(page, '')).length, outputsBefore, 'seeking sends no output events');
      await screenshot(page, 'embed-example.png');
      assert.deepEqual(errors, [], 'the page reported errors');
    } catch (err) {
      await screenshot(page, 'embed-failure.png').catch(() => {});
      throw err;
    } finally {
      await context.close();
    }
  });

  test('messages from a window that is not the parent, or not ours, run nothing', { timeout: 60_000 }, async () => {
    const { page, frame, errors, context } = await openExample();
    try {
      await waitForEvent(page, (e) => e.type === 'ready');
      // The framed page posts to itself: its own window is not its parent.
      await frame.locator('body').evaluate(() => {
        window.postMessage({ type: 'quorum-playground:run', line: 'etcdctl put from-self 1' }, '*');
      });
      // From the parent, but not a message of the bridge, or a line it refuses.
      await page.evaluate(() => {
        const w = document.getElementById('playground').contentWindow;
        w.postMessage({ type: 'run', line: 'etcdctl put untyped 1' }, '*');
        w.postMessage('quorum-playground:run', '*');
        w.postMessage({ type: 'quorum-playground:run', line: 'etcdctl put two 1\netcdctl put lines 2' }, '*');
        w.postMessage({ type: 'quorum-playground:run', line: 42 }, '*');
      });
      // Then one that runs: the messages before it were read (in order) and dropped.
      await page.evaluate(() => window.runCommand('echo after'));
      await waitForEvent(page, (e) => e.type === 'output' && e.command.endsWith('echo after'));
      const text = await frame.locator(OUTPUT).textContent();
      for (const key of ['from-self', 'untyped', 'two', 'lines']) {
        assert.ok(!text.includes(`put ${key}`), `"put ${key}" did not run`);
      }
      const outputs = await page.evaluate(() => window.events.filter((e) => e.type === 'output').map((e) => e.command));
      assert.deepEqual(outputs.map((c) => c.replace(/^\S*\$ /, '')), ['echo after']);
      assert.deepEqual(errors, [], 'the page reported errors');
    } catch (err) {
      await screenshot(page, 'embed-not-parent-failure.png').catch(() => {});
      throw err;
    } finally {
      await context.close();
    }

    // The embed URL opened top-level: there is no parent, and nothing listens.
    await withPage(
      browser,
      `${server.url}?embed=1&panels=terminal,quorum`,
      async (top) => {
        assert.equal(await top.locator('[data-testid="machine-node01"], [data-testid="logs-panel"]').count(), 0, 'only the panels asked for');
        const before = await terminalText(top);
        const received = await top.evaluate(async () => {
          let seen = 0;
          window.addEventListener('message', () => seen++);
          window.postMessage({ type: 'quorum-playground:run', line: 'etcdctl put top 1' }, '*');
          window.postMessage({ type: 'quorum-playground:pause' }, '*');
          await new Promise((ok) => setTimeout(ok, 500));
          return seen;
        });
        assert.equal(received, 2, 'the messages were delivered');
        assert.equal(await terminalText(top), before, 'nothing ran');
        assert.ok(!(await terminalText(top)).includes('put top'));
        assert.equal(await top.locator('[data-testid="terminal-pending"]').count(), 0);
      },
      { viewport: VIEWPORT, name: 'embed-top-level-failure' },
    );
  });

  test('controls= shows the world controls asked for; a bad one is named in the notice', { timeout: 60_000 }, async () => {
    await withPage(
      browser,
      `${server.url}?embed=1&controls=reset,wipe-everything`,
      async (page) => {
        assert.equal(await page.locator('[data-testid="reset"]').count(), 1, 'Reset, as asked');
        assert.equal(await page.locator('[data-testid="seed"], [data-testid="reset-empty"]').count(), 0, 'not the others');
        await page.locator('[data-testid="notice"]', { hasText: '"wipe-everything" is not a control' }).waitFor();
        // Reset works without the seed field: the same seed, a new world.
        await page.locator('[data-testid="controls-menu"]').click();
        await page.locator('[data-testid="reset"]').click();
        await page.locator('[data-testid="machine-node01"]').waitFor();
      },
      { viewport: { width: 640, height: 480 }, name: 'embed-controls-failure' },
    );
    await withPage(
      browser,
      `${server.url}?embed=1&controls=all`,
      async (page) => {
        for (const id of ['seed', 'reset', 'reset-empty']) {
          assert.equal(await page.locator(`[data-testid="${id}"]`).count(), 1, `${id} with controls=all`);
        }
        assert.equal(await page.locator('[data-testid="notice"]').count(), 0);
      },
      { viewport: { width: 640, height: 480 }, name: 'embed-controls-all-failure' },
    );
    // Not embedded: everything shows, and the notice says controls= did nothing.
    await withPage(
      browser,
      `${server.url}?controls=none`,
      async (page) => {
        for (const id of ['seed', 'reset', 'reset-empty']) {
          assert.equal(await page.locator(`[data-testid="${id}"]`).count(), 1, `${id} on the page itself`);
        }
        await page.locator('[data-testid="notice"]', { hasText: 'only an embedded page (embed=1) hides controls' }).waitFor();
      },
      { viewport: { width: 1280, height: 720 }, name: 'embed-controls-page-failure' },
    );
  });

  test('origin= limits the bridge to that origin', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      // The example page, its frame pointed at origin=http://elsewhere.invalid.
      await page.goto(`${server.url}static/embed-example.html`, { waitUntil: 'load' });
      await page.frameLocator('#playground').locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
      await page.evaluate(() => {
        window.events.length = 0;
        document.getElementById('playground').src = '../index.html?embed=1&panels=terminal&origin=http://elsewhere.invalid';
      });
      const frame = page.frameLocator('#playground');
      await page.waitForFunction(() => document.getElementById('playground').contentWindow.location.search.includes('origin='));
      await frame.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(500);
      await page.evaluate(() => window.runCommand('etcdctl put from-wrong-origin 1'));
      await page.waitForTimeout(1000);
      assert.ok(!(await frame.locator(OUTPUT).textContent()).includes('from-wrong-origin'), 'a message from another origin ran nothing');
      assert.deepEqual(await page.evaluate(() => window.events), [], 'no event went to this origin');
      assert.deepEqual(errors, [], 'the page reported errors');
    } finally {
      await context.close();
    }
  });
});
