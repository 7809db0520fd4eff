// The network on the map against the built site (E2E_DIST or dist/): after
// `net delay node01 node02 200ms` and `net rate node01 1mbit` the slow link
// has its label and node01 its NIC gauge, visible, clear of the machine
// boxes and (on a phone) at least 11 px; a one-way loss gets its own label;
// a tiny queue shows full while raft messages are dropped; the selected
// machine's network buttons type their commands. A default LAN shows none of
// it. Screenshots at 1440x900, 1280x720 and 390x844 go to
// e2e/out/network-*.png.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { useSite } from './helpers/site.mjs';
import { OUT } from './helpers/browser.mjs';
import { pause, setSpeed, terminalText, type, waitForOutput, withPage as withPageAt } from './helpers/page.mjs';

let browser;
let server;
let failures = 0;

useSite((b, s) => {
  browser = b;
  server = s;
});

function withPage(fn, viewport) {
  return withPageAt(browser, server.url, fn, { viewport, name: `network-failure-${++failures}` });
}

const SIZES = [
  ['1440', { width: 1440, height: 900 }],
  ['1280', { width: 1280, height: 720 }],
  ['390', { width: 390, height: 844 }],
];

const LABEL = '[data-testid="net-link-node01-node02"]';
const GAUGE = '[data-testid="nic-node01"]';

/** A screenshot of the window with the map in it. */
async function shot(page, name) {
  await page.locator('svg.map').scrollIntoViewIfNeeded();
  await mkdir(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, name) });
}

/** The page-pixel boxes of the machines and of the network's marks. */
async function boxes(page) {
  return page.evaluate(() => {
    // a text's size on the screen: its font size scaled as the map is
    const px = (t) => parseFloat(getComputedStyle(t).fontSize) * (t.getScreenCTM()?.a ?? 1);
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { id: el.getAttribute('data-testid'), left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    return {
      machines: [...document.querySelectorAll('[data-testid^="machine-"] rect.box')].map((r) => ({ ...box(r), id: r.closest('g').getAttribute('data-testid') })),
      labels: [...document.querySelectorAll('[data-testid^="net-link-"] rect')].map((r) => ({ ...box(r), id: r.closest('g').getAttribute('data-testid') })),
      gauges: [...document.querySelectorAll('[data-testid^="nic-"]')].map(box),
      map: box(document.querySelector('svg.map')),
      fonts: [...document.querySelectorAll('.net-labels text, .nic-gauges text')].map(px),
      nodeFonts: [...document.querySelectorAll('.node text')].map(px),
    };
  });
}

const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;

describe('the network on the map', () => {
  for (const [size, viewport] of SIZES) {
    test(`a slow link's label and a limited NIC's gauge, clear of the boxes (${size})`, { timeout: 90_000 }, async () => {
      await withPage(async (page) => {
        // a default LAN: nothing of the network is drawn
        await page.locator('[data-testid="machine-node03"]').waitFor();
        assert.equal(await page.locator('[data-testid^="net-link-"], [data-testid^="nic-"]').count(), 0);
        await type(page, 'net delay node01 node02 200ms');
        await type(page, 'net rate node01 1mbit');
        await type(page, 'net loss node03->node02 5%');
        await waitForOutput(page, 'net loss node03->node02 5%');
        await page.locator(LABEL).waitFor({ state: 'visible' });
        await page.locator(GAUGE).waitFor({ state: 'visible' });
        assert.equal(await page.locator(LABEL).getAttribute('data-lines'), '200 ms');
        assert.match(await page.locator(LABEL).textContent(), /200 ms/);
        assert.match(await page.locator(GAUGE).textContent(), /NIC 1mbit.*\/ 4mb/);
        assert.equal(await page.locator(GAUGE).getAttribute('data-full'), 'false');
        const oneWay = page.locator('[data-testid="net-link-node03-node02"]');
        await oneWay.waitFor({ state: 'visible' });
        assert.equal(await oneWay.getAttribute('data-lines'), '5% loss');
        const b = await boxes(page);
        for (const l of [...b.labels, ...b.gauges]) {
          assert.ok(inside(l, b.map), `${l.id} is inside the map: ${JSON.stringify(l)} ${JSON.stringify(b.map)}`);
          for (const m of b.machines) assert.ok(!overlap(l, m), `${l.id} covers ${m.id}: ${JSON.stringify([l, m])}`);
        }
        for (const [i, l] of b.labels.entries()) {
          for (const k of b.labels.slice(i + 1)) assert.ok(!overlap(l, k), `${l.id} covers ${k.id}`);
        }
        // as large as the machines' own lines, and on a phone at least 11 px
        const least = size === '390' ? 10.9 : Math.min(...b.nodeFonts) * 0.85;
        for (const f of b.fonts) assert.ok(f >= least, `the network's text is ${f.toFixed(1)} px, under ${least.toFixed(1)}`);
        await shot(page, `network-${size}.png`);
      }, viewport);
    });
  }

  test("a learner catching up behind the leader's slow NIC: the queue and the time it takes", { timeout: 150_000 }, async () => {
    await withPage(async (page) => {
      await page.locator('[data-testid="machine-node03"]').waitFor();
      await type(page, 'machine add node04 192.168.0.64');
      await type(page, 'etcdctl check datascale --load=s');
      await waitForOutput(page, 'PASS: Approximate system memory used', 60_000);
      await type(page, 'sleep 5');
      await type(page, 'net rate node01 10mbit limit 4mb');
      await type(page, 'etcdctl member add node04 --peer-urls=http://192.168.0.64:2380 --learner');
      await type(page, 'node04$ etcd --name node04 --initial-advertise-peer-urls http://192.168.0.64:2380 --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.64:2379 --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380,node04=http://192.168.0.64:2380 --initial-cluster-state existing');
      const queue = page.locator('[data-testid="learner-queue"]');
      await queue.waitFor({ timeout: 30_000 });
      assert.match(await queue.textContent(), /the leader's NIC holds [\d.]+[kmg]?b for its peers: about [\d.]+ s at 10mbit/);
      await pause(page);
      await queue.scrollIntoViewIfNeeded();
      await mkdir(OUT, { recursive: true });
      await page.screenshot({ path: join(OUT, 'network-learner-1440.png') });
    }, { width: 1440, height: 900 });
  });

  test('a tiny queue fills and shows full while raft messages wait in their writer buffers, then drains; a link losing everything drops, marked', { timeout: 90_000 }, async () => {
    await withPage(async (page) => {
      await page.locator('[data-testid="machine-node03"]').waitFor();
      await setSpeed(page, '0.5');
      // a byte a millisecond, a 1 kB queue: a 2 kB append waits 2 s, the next does not fit
      await type(page, 'net rate node01 8kbit limit 1kb');
      await type(page, `etcdctl put k ${'v'.repeat(2000)}`);
      const full = page.locator(`${GAUGE}[data-full="true"]`);
      await full.waitFor({ timeout: 10_000 });
      assert.match(await full.textContent(), /full/);
      assert.equal(await full.getAttribute('data-fill'), '1.00');
      // a full queue drops nothing: raft messages wait in rafthttp's buffers (backpressure)
      assert.equal(await page.locator('[data-testid="msg"][data-dropped="true"]').count(), 0);
      await shot(page, 'network-full-1440.png');
      await page.locator(`${GAUGE}[data-full="false"]`).waitFor({ timeout: 30_000 });
      // a link that loses every packet drops what crosses it, marked on the way
      await type(page, 'net loss node01 node02 100%');
      await page.locator('[data-testid="msg"][data-dropped="true"]').first().waitFor({ state: 'attached', timeout: 10_000 });
    }, { width: 1440, height: 900 });
  });

  test("the selected machine's network buttons type their commands", { timeout: 60_000 }, async () => {
    await withPage(async (page) => {
      await pause(page);
      await page.locator('[data-testid="machine-node02"]').click();
      const peer = page.locator('[data-testid="net-peer"]');
      await peer.selectOption('node03');
      await page.locator('[data-testid="action-net-delay"]').click();
      await page.locator('[data-testid="net-link-node02-node03"]').waitFor();
      await page.locator('[data-testid="action-net-rate"]').click();
      await page.locator('[data-testid="nic-node02"]').waitFor();
      const text = await terminalText(page);
      assert.ok(text.includes('net delay node02 node03 200ms'), text.slice(-300));
      assert.ok(text.includes('net rate node02 1mbit'), text.slice(-300));
      await page.locator('[data-testid="net-actions"]').scrollIntoViewIfNeeded();
      await mkdir(OUT, { recursive: true });
      await page.screenshot({ path: join(OUT, 'network-buttons-1440.png') });
      await page.locator('[data-testid="action-net-clear-link"]').click();
      await page.locator('[data-testid="net-link-node02-node03"]').waitFor({ state: 'detached' });
    }, { width: 1440, height: 900 });
  });
});
