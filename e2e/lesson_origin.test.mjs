// Lessons from this site only (issue 20): a second local server, on another
// port of 127.0.0.1 (another origin), serves a valid lesson to anyone
// (`Access-Control-Allow-Origin: *`). Every way a `?lesson=` could be bent
// towards it (tab, LF and CR the URL parser strips, `http:/%09/`, `https:HOST`,
// `http:HOST`, protocol-relative, `data:`, `blob:`, `javascript:`, a
// backslash) is refused with a message saying why, its title and narration
// never show, and the foreign server never sees a connection. Lessons from
// this site, by name or by path, still open, also from a sub-path.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDir } from './helpers/server.mjs';
import { DIST, launchBrowser, requireDist, screenshot, watchErrors } from './helpers/browser.mjs';
import { INPUT } from './helpers/page.mjs';

const TITLE = 'FOREIGN-LESSON-TITLE';
const NARRATION = 'FOREIGN-LESSON-NARRATION';
const LESSON = `title: ${TITLE}
seed: 1
start: cluster

## 1. A step from elsewhere
${NARRATION}: this lesson must never show on the playground's origin.

$ etcdctl put foreign 1
| OK
`;
const PROBE = 'zz-origin-probe.lesson';

let browser;
let site;
let subSite;
let foreign;

/** A server on 127.0.0.1 that serves LESSON at any path, to any origin, and records every connection and request. */
async function serveForeign() {
  const requests = [];
  const connections = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, {
      'content-type': 'text/plain; charset=utf-8',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' || req.method === 'OPTIONS' ? undefined : LESSON);
  });
  server.on('connection', (socket) => connections.push(socket.remoteAddress));
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    host: `127.0.0.1:${port}`,
    requests,
    connections,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

before(async () => {
  await requireDist();
  browser = await launchBrowser();
  site = await serveDir(DIST);
  subSite = await serveDir(DIST, { prefix: '/sub/path/' });
  foreign = await serveForeign();
  // The same lesson on this site: proof that it would show if it were loaded.
  await writeFile(join(DIST, 'static', 'lessons', PROBE), LESSON);
});

after(async () => {
  await rm(join(DIST, 'static', 'lessons', PROBE), { force: true });
  await browser?.close();
  await site?.close();
  await subSite?.close();
  await foreign?.close();
});

const VIEWPORT = { width: 1440, height: 900 };

/**
 * Opens the site with `query` in a fresh context and runs `fn(page)`; a
 * dialog (as `javascript:` would open) fails the test. Returns the errors the
 * page reported.
 */
async function openSite(base, query, fn, { viewport = VIEWPORT, context: given } = {}) {
  const context = given ?? (await browser.newContext({ viewport }));
  const page = await context.newPage();
  const errors = watchErrors(page);
  let dialog = null;
  page.on('dialog', async (d) => {
    dialog = d.message();
    await d.dismiss();
  });
  try {
    await page.goto(`${base}${query}`, { waitUntil: 'load' });
    await page.locator(INPUT).waitFor({ state: 'visible', timeout: 30_000 });
    await fn(page);
    assert.equal(dialog, null, `a dialog opened: ${dialog}`);
    return errors;
  } catch (err) {
    await screenshot(page, 'lesson-origin-failure.png').catch(() => {});
    throw err;
  } finally {
    await page.close();
    if (!given) await context.close();
  }
}

/** The message a refused lesson gets, wherever the page shows it. */
const refusal = (page) => page.locator('[data-testid="lesson-error"], [data-testid="notice"]');

async function assertNoForeignText(page, what) {
  // Give a fetch that should not happen the time to land.
  await page.waitForTimeout(400);
  // The page's text but its messages, which may quote the URL as given.
  const text = await page.evaluate(() => {
    const body = document.body.cloneNode(true);
    for (const m of body.querySelectorAll('[data-testid="lesson-error"], [data-testid="notice"]')) m.remove();
    return body.textContent;
  });
  assert.ok(!text.includes(TITLE), `${what}: the foreign title shows`);
  assert.ok(!text.includes(NARRATION), `${what}: the foreign narration shows`);
  assert.equal(await page.locator('[data-testid="lesson-panel"]').count(), 0, `${what}: a lesson opened`);
}

describe('lessons from this site only', () => {
  test('the foreign server serves its lesson to any origin, and the same lesson on this site shows', { timeout: 60_000 }, async () => {
    await openSite(site.url, `?lesson=static/lessons/${PROBE}`, async (page) => {
      await page.locator('[data-testid="lesson-title"]', { hasText: TITLE }).waitFor({ timeout: 15_000 });
      await page.locator('.narration', { hasText: NARRATION }).waitFor();
    });
    // A script on the page could read it (CORS allows it): only the page's check keeps it out.
    const before = foreign.requests.length;
    await openSite(site.url, '', async (page) => {
      const body = await page.evaluate((u) => fetch(u).then((r) => r.text()), `http://${foreign.host}/x.lesson`);
      assert.ok(body.includes(TITLE));
    });
    assert.equal(foreign.requests.length, before + 1, 'the control request reached the foreign server');
    foreign.requests.length = 0;
    foreign.connections.length = 0;
  });

  test('every way towards another site is refused and says why', { timeout: 240_000 }, async () => {
    const host = () => foreign.host;
    const E = encodeURIComponent;
    // Each case: what is typed into the query string (already percent-encoded
    // where it must be) and what the message says.
    const cases = [
      ['tab after the first slash', () => `/%09/${host()}/x.lesson`, /holds a tab, a line break/],
      ['LF after the first slash', () => `/%0A/${host()}/x.lesson`, /holds a tab, a line break/],
      ['CR after the first slash', () => `/%0D/${host()}/x.lesson`, /holds a tab, a line break/],
      ['leading tab', () => `%09//${host()}/x.lesson`, /holds a tab, a line break/],
      ['trailing LF', () => `//${host()}/x.lesson%0A`, /holds a tab, a line break/],
      ['tab in the scheme', () => `ht%09tp://${host()}/x.lesson`, /holds a tab, a line break/],
      ['CR in the host', () => `//127.0.%0D0.1:${host().split(':')[1]}/x.lesson`, /holds a tab, a line break/],
      ['LF in the scheme', () => `http%0A://${host()}/x.lesson`, /holds a tab, a line break/],
      ['http:/%09/HOST', () => `http:/%09/${host()}/x.lesson`, /holds a tab, a line break/],
      ['backslash', () => `/%5C${host()}/x.lesson`, /holds a tab, a line break, another control character or a backslash/],
      ['https:HOST', () => `https:${host()}/x.lesson`, /is on another site \("https:\/\/127\.0\.0\.1:/],
      ['protocol-relative', () => `//${host()}/x.lesson`, /is on another site \("http:\/\/127\.0\.0\.1:/],
      ['protocol-relative, three slashes', () => `///${host()}/x.lesson`, /is on another site/],
      ['absolute http', () => E(`http://${host()}/x.lesson`), /is on another site/],
      ['absolute, upper case', () => E(`HTTP://${host()}/x.lesson`), /is on another site/],
      ['user info before the host', () => E(`http://127.0.0.1@${host()}/x.lesson`), /is on another site/],
      ['data: URL', () => E(`data:text/plain,${E(LESSON)}#x.lesson`), /"data:" URLs are not lessons/],
      ['data: URL with raw line breaks', () => E(`data:text/plain,${LESSON}`), /holds a tab, a line break/],
      ['data: URL, base64', () => E(`data:text/plain;base64,${Buffer.from(LESSON).toString('base64')}#x.lesson`), /"data:" URLs are not lessons/],
      ['javascript: URL', () => E(`javascript:alert(document.domain)//x.lesson`), /"javascript:" URLs are not lessons/],
      ['blob: URL that does not exist', () => E(`blob:${site.origin}/00000000-0000-0000-0000-000000000000`), /"blob:" URLs are not lessons/],
    ];
    let shot = false;
    for (const [what, query, says] of cases) {
      const errors = await openSite(site.url, `?lesson=${query()}`, async (page) => {
        await refusal(page).filter({ hasText: says }).first().waitFor({ timeout: 15_000 });
        await assertNoForeignText(page, what);
        if (!shot) {
          shot = true;
          await screenshot(page, 'lesson-refused-1440.png');
        }
      });
      assert.deepEqual(errors, [], `${what}: the page reported errors`);
    }
    assert.deepEqual(foreign.requests, [], 'the foreign server got no request');
    assert.deepEqual(foreign.connections, [], 'the foreign server got no connection');
  });

  test('http:HOST:PORT is a path on this site (same scheme), so it is looked for here', { timeout: 60_000 }, async () => {
    const errors = await openSite(site.url, `?lesson=http:${foreign.host}/x.lesson`, async (page) => {
      await refusal(page).filter({ hasText: 'HTTP 404' }).first().waitFor({ timeout: 15_000 });
      await assertNoForeignText(page, 'http:HOST');
    });
    assert.ok(errors.every((e) => e.includes('404')), errors.join('\n'));
    assert.ok(
      site.requests.some((r) => r.path.endsWith(`/${foreign.host}/x.lesson`) && r.status === 404),
      'the request went to this site',
    );
    assert.deepEqual(foreign.requests, []);
    assert.deepEqual(foreign.connections, []);
  });

  test('a blob: URL of this very origin is refused too', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    try {
      // Another tab of the same origin makes the blob and stays open, so the URL is live.
      const maker = await context.newPage();
      await maker.goto(site.url, { waitUntil: 'load' });
      const blob = await maker.evaluate((text) => URL.createObjectURL(new Blob([text], { type: 'text/plain' })), LESSON);
      assert.equal(await maker.evaluate((u) => fetch(u).then((r) => r.text()), blob), LESSON, 'the blob is live');
      const errors = await openSite(site.url, `?lesson=${encodeURIComponent(blob)}`, async (page) => {
        await refusal(page).filter({ hasText: '"blob:" URLs are not lessons' }).first().waitFor({ timeout: 15_000 });
        await assertNoForeignText(page, 'live blob:');
      }, { context });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('in an embed without the lesson panel, the refusal is a notice', { timeout: 60_000 }, async () => {
    const errors = await openSite(site.url, `?embed=1&lesson=//${foreign.host}/x.lesson`, async (page) => {
      await page.locator('[data-testid="notice"]', { hasText: 'is not a lesson on this site' }).waitFor({ timeout: 15_000 });
      await assertNoForeignText(page, 'embed');
    });
    assert.deepEqual(errors, []);
    const phone = await openSite(site.url, `?lesson=/%09/${foreign.host}/x.lesson`, async (page) => {
      await refusal(page).first().waitFor({ timeout: 15_000 });
      await screenshot(page, 'lesson-refused-390.png');
    }, { viewport: { width: 390, height: 844 } });
    assert.deepEqual(phone, []);
    assert.deepEqual(foreign.requests, []);
    assert.deepEqual(foreign.connections, []);
  });

  test('lessons from this site open by name and by path, also from a sub-path', { timeout: 120_000 }, async () => {
    const opens = async (base, query) => {
      const errors = await openSite(base, query, async (page) => {
        await page.locator('[data-testid="lesson-title"]').waitFor({ timeout: 15_000 });
        await page.locator('[data-testid="lesson-step"]', { hasText: /^Step 1 of \d+/ }).waitFor();
        assert.equal(await page.locator('[data-testid="lesson-error"]').count(), 0);
      });
      assert.deepEqual(errors, [], `${base}${query}`);
    };
    await opens(site.url, '?lesson=000-server-addition-deletion');
    await opens(site.url, '?lesson=static/lessons/000-server-addition-deletion.lesson');
    await opens(site.url, `?lesson=${encodeURIComponent(`${site.origin}/static/lessons/001-learner-design.lesson`)}`);
    await opens(subSite.url, '?lesson=002-runtime-reconfiguration');
    await opens(subSite.url, '?lesson=static/lessons/002-runtime-reconfiguration.lesson');
    await opens(subSite.url, '?lesson=/sub/path/static/lessons/003-two-nodes-learner-standby.lesson');
    await opens(`${subSite.url}index.html`, '?lesson=./static/lessons/004-clustering-step-by-step.lesson');
    assert.deepEqual(foreign.requests, []);
  });
});
