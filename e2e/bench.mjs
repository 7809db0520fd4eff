// Performance figures of the built site (dist/), one line per figure in the
// form `name: value unit (details) (goal: ...)`, as src/bin/bench.rs prints
// the native ones; a goal with a threshold says `met` or `NOT met`. This
// script owns:
//   1. size: what the first page downloads (index.html and the wasm, JS and CSS
//      it references), raw, gzip -9 and brotli q11; the lessons (fetched only
//      when one is opened) apart;
//   2. start: navigation start (the page's performance.timeOrigin) to a running
//      three-member cluster with a leader and the terminal enabled, median of
//      fresh browser contexts;
//   3. frames: at 100x with seven etcd members in one cluster and message
//      animation on, the requestAnimationFrame interval and the renderer main
//      thread's busy time per frame (a Chromium trace), p50 and p95, and how
//      many message dots and election timers each frame drew;
//   4. cpu: renderer main-thread task time per real second (CDP
//      Performance.getMetrics) playing, paused, behind another page and hidden,
//      and whether the simulated clock moved while the page could not be seen.
//      Headless Chromium keeps every page's visibilityState 'visible' (bringing
//      another page to the front, background tabs, a minimised window,
//      Page.setWebLifecycleState and focus emulation all leave it so), so
//      "hidden" is told to the page as a browser tells it (visibilitychange)
//      and "behind another page" is what headless does do: ~1 frame a second.
//
// Run after `make build`:  node e2e/bench.mjs
// Not a test (no .test.mjs), so `node --test e2e/` leaves it out. Knobs:
// BENCH_RUNS (fresh contexts for figure 2, default 5), BENCH_FRAME_S (default
// 10), BENCH_CPU_S (default 5). Sizes are in kB of 1000 bytes.
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DIST, launchBrowser, requireDist } from './helpers/browser.mjs';
import { emulateHidden, parseElapsed, pause, recordElapsed, recordedElapsed, setSpeed, type } from './helpers/page.mjs';
import { serveDir } from './helpers/server.mjs';
import { FIRST_PAGE_BUDGET_BROTLI, ZERO, add, firstPageFiles, sizesByKind } from './helpers/size.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FRAME_S = Number(process.env.BENCH_FRAME_S ?? 10);
const CPU_S = Number(process.env.BENCH_CPU_S ?? 5);
const VIEWPORT = { width: 1440, height: 1000 };
const LEADER_OR_FOLLOWER = ['leader', 'follower'];

// ---- printing and statistics ------------------------------------------------

/** One figure; `goal` is [text, met] or a text alone (no verdict); `details` go in parentheses. */
function report(name, value, unit, goal = 'none', details = '') {
  const [text, met] = Array.isArray(goal) ? goal : [goal, undefined];
  const verdict = met === undefined ? '' : met ? '; met' : '; NOT met';
  console.log(`${name}: ${value} ${unit}${details ? ` (${details})` : ''} (goal: ${text}${verdict})`);
}

function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const median = (values) => percentile(values, 50);
const sum = (values) => values.reduce((a, b) => a + b, 0);
/** Under this many ms of main-thread work per second (1 % of a core), a page counts as idle. */
const IDLE_MS_PER_S = 10;
const kb = (bytes) => (bytes / 1000).toFixed(1);
const ms1 = (v) => v.toFixed(1);

// ---- 1. sizes -----------------------------------------------------------------

function reportSizes(label, s, details = '', goal = {}) {
  for (const enc of ['raw', 'gzip', 'brotli']) report(`site_${label}_${enc}`, kb(s[enc]), 'kB', goal[enc], details);
}

async function sizes() {
  const files = await firstPageFiles(DIST);
  const kinds = await sizesByKind(DIST, files);
  for (const kind of ['wasm', 'js', 'css', 'html']) if (kinds[kind]) reportSizes(kind, kinds[kind]);
  const total = Object.values(kinds).reduce(add, ZERO);
  const what = `${files.length} files: ${Object.keys(kinds).join(', ')}`;
  reportSizes('first_page', total, what, { brotli: ['< 300 kB', total.brotli < 300_000] });
  const budget = FIRST_PAGE_BUDGET_BROTLI;
  report('site_first_page_budget_brotli', kb(budget), 'kB', ['first page brotli within it', total.brotli <= budget]);
  const lessonsDir = join(DIST, 'static', 'lessons');
  const lessons = (await readdir(lessonsDir).catch(() => [])).filter((f) => f.endsWith('.lesson'));
  if (lessons.length > 0) {
    const all = (await sizesByKind(lessonsDir, lessons)).lesson;
    reportSizes('lessons', all, `all ${lessons.length}, each fetched only when opened`);
  }
  return files;
}

// ---- 2. navigation to a running cluster ---------------------------------------

/**
 * Runs in the page before its own scripts: records performance.now() (ms since
 * navigation start) the first time the terminal input is enabled and the map
 * shows three running machines, one of them the leader, with quorum ok.
 */
function readyProbe() {
  const ready = () => {
    const input = document.querySelector('[data-testid="terminal-input"]');
    const quorum = document.querySelector('[data-testid="quorum-status"]');
    const states = [...document.querySelectorAll('[data-testid^="machine-"][data-state]')].map((m) =>
      m.getAttribute('data-state'),
    );
    return (
      input !== null &&
      !input.disabled &&
      quorum?.textContent.includes('quorum ok') &&
      states.length === 3 &&
      states.filter((s) => s === 'leader').length === 1 &&
      states.every((s) => s === 'leader' || s === 'follower')
    );
  };
  const observer = new MutationObserver(() => {
    if (window.__benchReady === undefined && ready()) {
      window.__benchReady = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

async function timeToCluster(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(readyProbe);
    await page.goto(url);
    await page.waitForFunction(() => window.__benchReady !== undefined, null, { timeout: 30_000 });
    return await page.evaluate(() => {
      const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'));
      return { ready: window.__benchReady, wasmLoaded: wasm?.responseEnd ?? NaN };
    });
  } finally {
    await context.close();
  }
}

async function startTimes(browser, server, files) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timeToCluster(browser, server.url));
  const ready = runs.map((r) => r.ready);
  const what = `navigation start to terminal enabled and 3 members with a leader, quorum ok; ${RUNS} fresh contexts`;
  report('start_to_cluster_median', ms1(median(ready)), 'ms', ['< 1000 ms', median(ready) < 1000], what);
  report('start_to_cluster_slowest', ms1(Math.max(...ready)), 'ms', 'none', `of ${RUNS}`);
  const wasm = median(runs.map((r) => r.wasmLoaded));
  report('start_to_wasm_downloaded_median', ms1(wasm), 'ms', 'none', 'part of the above');
  warnUncounted(server.requests, files);
}

/** Says on stderr if the page fetched files the size figures leave out. */
function warnUncounted(requests, files) {
  const fetched = new Set(requests.map((r) => basename(new URL(r.path, 'http://h').pathname) || 'index.html'));
  const uncounted = [...fetched].filter((f) => !files.includes(f));
  if (uncounted.length > 0) console.error(`note: the page also fetched ${uncounted.join(', ')} (not in the sizes)`);
}

// ---- a page with seven members --------------------------------------------------

const ip = (n) => `192.168.0.${60 + n}`;
const node = (n) => `node0${n}`;

/** Lines that add node04..node07 to the boot cluster one at a time (etcd wants 5 s of health between adds). */
function growToSeven() {
  let cluster = [1, 2, 3].map((n) => `${node(n)}=http://${ip(n)}:2380`).join(',');
  const lines = ['sleep 6'];
  for (let n = 4; n <= 7; n++) {
    cluster += `,${node(n)}=http://${ip(n)}:2380`;
    lines.push(
      `machine add ${node(n)} ${ip(n)}`,
      `node01$ etcdctl member add ${node(n)} --peer-urls=http://${ip(n)}:2380`,
      `${node(n)}$ etcd --name ${node(n)} --initial-advertise-peer-urls http://${ip(n)}:2380 ` +
        `--listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://${ip(n)}:2379 ` +
        `--listen-client-urls http://0.0.0.0:2379 --initial-cluster ${cluster} --initial-cluster-state existing`,
      'sleep 6',
    );
  }
  return lines;
}

async function machineStates(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid^="machine-"][data-state]')].map((m) => m.getAttribute('data-state')),
  );
}

async function openPage(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('[data-testid="quorum-status"]', { hasText: 'quorum ok' }).waitFor({ timeout: 30_000 });
  return { context, page };
}

async function sevenMembers(page) {
  await pause(page);
  for (const line of growToSeven()) await type(page, line);
  const states = await machineStates(page);
  const quorum = await page.locator('[data-testid="quorum-status"]').textContent();
  const leaders = states.filter((s) => s === 'leader').length;
  const running = states.every((s) => LEADER_OR_FOLLOWER.includes(s));
  if (states.length !== 7 || leaders !== 1 || !running || !quorum.includes('quorum ok')) {
    throw new Error(`no healthy seven-member cluster: ${states.join(',')}; ${quorum}`);
  }
}

async function play(page) {
  const button = page.locator('[data-testid="play-pause"]');
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await page.locator('[data-testid="play-pause"][aria-pressed="true"]').waitFor();
}

async function animationOn(page) {
  const button = page.locator('[data-testid="animate"]');
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await page.locator('[data-testid="animate"][aria-pressed="true"]').waitFor();
}

// ---- 3. frames ----------------------------------------------------------------------

/** rAF timestamps over `ms` of real time, from inside the page. */
function rafStamps(page, ms) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        const stamps = [];
        const end = performance.now() + ms;
        const frame = (t) => {
          stamps.push(t);
          if (t < end) requestAnimationFrame(frame);
          else resolve(stamps);
        };
        requestAnimationFrame(frame);
      }),
    ms,
  );
}

/** The mean number of message dots and election timers per frame over `ms`. */
function dotsPerFrame(page, ms) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        let frames = 0;
        let dots = 0;
        let timers = 0;
        const end = performance.now() + ms;
        const frame = (t) => {
          frames += 1;
          dots += document.querySelectorAll('[data-testid="msg"]').length;
          timers += document.querySelectorAll('[data-testid="timer"]').length;
          if (t < end) requestAnimationFrame(frame);
          else resolve({ dots: dots / frames, timers: timers / frames });
        };
        requestAnimationFrame(frame);
      }),
    ms,
  );
}

const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
];

/** The renderer main thread with the most frames: its task spans and frame starts (µs). */
function mainThreadOf(trace) {
  const events = trace.traceEvents ?? trace;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!main.has(key)) continue;
    if (!byThread.has(key)) byThread.set(key, { tasks: [], frames: [] });
    const t = byThread.get(key);
    if (e.name === 'RunTask' && e.ph === 'X') t.tasks.push([e.ts, e.ts + (e.dur ?? 0)]);
    if (e.name === 'BeginMainThreadFrame') t.frames.push(e.ts);
  }
  return [...byThread.values()].sort((a, b) => b.frames.length - a.frames.length)[0] ?? { tasks: [], frames: [] };
}

/** Main-thread busy ms between one frame's start and the next's. */
function busyPerFrame({ tasks, frames }) {
  const starts = [...frames].sort((a, b) => a - b);
  tasks.sort((a, b) => a[0] - b[0]);
  const busy = [];
  let first = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    const [from, to] = [starts[i], starts[i + 1]];
    while (first < tasks.length && tasks[first][1] <= from) first++;
    let sum = 0;
    for (let j = first; j < tasks.length && tasks[j][0] < to; j++) {
      sum += Math.max(0, Math.min(to, tasks[j][1]) - Math.max(from, tasks[j][0]));
    }
    busy.push(sum / 1000);
  }
  return busy;
}

async function frames(browser, url) {
  const { context, page } = await openPage(browser, url);
  try {
    await sevenMembers(page);
    await animationOn(page);
    await setSpeed(page, '100');
    await play(page);
    await sleep(2000); // past the first frames at the new speed
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const stamps = await rafStamps(page, FRAME_S * 1000);
    const busy = busyPerFrame(mainThreadOf(JSON.parse(await browser.stopTracing())));
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]);
    const name = 'frames_100x_7_members';
    const how = `message animation on, ${FRAME_S} s`;
    const vsync = 'none: vsync caps it at 16.7 ms (60 Hz); the 16 ms goal is on busy time';
    const raf = `requestAnimationFrame interval, ${how}`;
    report(`${name}_raf_interval_p50`, ms1(percentile(intervals, 50)), 'ms', vsync, raf);
    report(`${name}_raf_interval_p95`, ms1(percentile(intervals, 95)), 'ms', vsync, raf);
    const work = `renderer main-thread task time from one frame's start to the next, traced, ${how}`;
    const p95 = percentile(busy, 95);
    report(`${name}_busy_p50`, ms1(percentile(busy, 50)), 'ms', 'none', work);
    report(`${name}_busy_p95`, ms1(p95), 'ms', ['< 16 ms', p95 < 16], work);
    const share = ((100 * sum(busy)) / sum(intervals)).toFixed(0);
    report(`${name}_busy_share`, share, '% of real time', 'none', 'main thread');
    report(`${name}_fps`, (intervals.length / FRAME_S).toFixed(1), 'frames/s', 'none');
    // what the drawing drew: message dots and election timers on the map
    const drawn = await dotsPerFrame(page, 2000);
    report(`${name}_dots_mean`, drawn.dots.toFixed(1), 'message dots per frame', 'none', `and ${drawn.timers.toFixed(1)} election timers, 2 s`);
  } finally {
    await context.close();
  }
}

// ---- 4. CPU, paused and hidden -----------------------------------------------------------

async function taskSeconds(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration').value;
}

/** Renderer main-thread task ms per real second over CPU_S seconds. */
async function cpuPerSecond(cdp) {
  const [t0, c0] = [performance.now(), await taskSeconds(cdp)];
  await sleep(CPU_S * 1000);
  const [t1, c1] = [performance.now(), await taskSeconds(cdp)];
  return ((c1 - c0) * 1000) / ((t1 - t0) / 1000);
}

/** The simulated seconds the page shows, read without waiting for a frame (a page behind another gets none). */
async function elapsed(page) {
  return parseElapsed(await page.evaluate(() => document.querySelector('[data-testid="elapsed"]').textContent));
}

/** The simulated seconds of the clock's first change at or after the page's time `since`. */
async function firstStepAfter(page, since, before) {
  await sleep(500);
  const next = (await recordedElapsed(page)).find(([t]) => t >= since);
  return next ? next[1] - before : NaN;
}

/** Waits until the clock has not changed for `ms` (going behind another page takes a few hundred ms). */
async function stillFor(page, ms, limit = 5000) {
  const start = performance.now();
  let seen = -1;
  while (performance.now() - start < limit) {
    const now = (await recordedElapsed(page)).length;
    if (now === seen) return;
    seen = now;
    await sleep(ms);
  }
}

const pageNow = (page) => page.evaluate(() => performance.now());
const visibility = (page) => page.evaluate(() => document.visibilityState);

/**
 * Another page of the same context in front. Headless Chromium then gives this
 * page about one animation frame a second, but keeps it 'visible' and fires no
 * visibilitychange.
 */
async function behindAnotherPage(page) {
  const other = await page.context().newPage();
  await other.bringToFront();
  return async () => {
    await page.bringToFront();
    await other.close();
  };
}

/**
 * Hidden as a background tab is, as far as headless Chromium lets a page be: no
 * CDP call, window state or background tab makes a page 'hidden' there, so the
 * page is told (emulateHidden); its frames go on, which a real hidden tab stops.
 */
async function hiddenByEvent(page) {
  await emulateHidden(page, true);
  return () => emulateHidden(page, false);
}

/** CPU and clock while `hide` keeps the page out of sight, playing at 100x. */
async function unseen(page, cdp, label, hide, note) {
  await recordElapsed(page);
  const back = await hide(page);
  await stillFor(page, 300);
  const state = await visibility(page);
  const before = await elapsed(page);
  const cpu = await cpuPerSecond(cdp);
  const moved = (await elapsed(page)) - before;
  const returned = await pageNow(page);
  await back();
  const step = await firstStepAfter(page, returned, before + moved);
  const how = `playing 100x, visibilityState '${state}' ${note}, ${CPU_S} s`;
  report(`cpu_${label}`, ms1(cpu), 'ms/s', [`< ${IDLE_MS_PER_S} ms/s`, cpu < IDLE_MS_PER_S], how);
  report(`clock_${label}`, `+${moved.toFixed(1)}`, 's simulated', ['+0.0 s', moved === 0], how);
  const step1 = 'the first change of the clock once seen again, 100x';
  const oneFrame = ['one frame, ~1.7 s', step < 3.4];
  report(`clock_first_step_after_${label}`, `+${step.toFixed(1)}`, 's simulated', oneFrame, step1);
}

async function cpu(browser, url) {
  const { context, page } = await openPage(browser, url);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const how = `renderer main-thread task time per real second, 3 members, visible, ${CPU_S} s`;
    report('cpu_playing_1x', ms1(await cpuPerSecond(cdp)), 'ms/s', 'reference', how);
    await setSpeed(page, '100');
    report('cpu_playing_100x', ms1(await cpuPerSecond(cdp)), 'ms/s', 'reference', how);
    await pause(page);
    const before = await elapsed(page);
    const paused = await cpuPerSecond(cdp);
    const moved = (await elapsed(page)) - before;
    report('cpu_paused', ms1(paused), 'ms/s', [`< ${IDLE_MS_PER_S} ms/s`, paused < IDLE_MS_PER_S], how);
    report('clock_paused', `+${moved.toFixed(1)}`, 's simulated', ['+0.0 s', moved === 0], `${CPU_S} s`);
    await play(page);
    await unseen(page, cdp, 'behind_another_page', behindAnotherPage, '(headless: ~1 frame/s, no event)');
    await unseen(page, cdp, 'hidden', hiddenByEvent, '(told by visibilitychange: headless never hides a page)');
  } finally {
    await context.close();
  }
}

// ---- main ---------------------------------------------------------------------------------

async function main() {
  await requireDist();
  const files = await sizes();
  const browser = await launchBrowser();
  const server = await serveDir(DIST);
  try {
    await startTimes(browser, server, files);
    await frames(browser, server.url);
    await cpu(browser, server.url);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
