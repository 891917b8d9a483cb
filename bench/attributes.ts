/**
 * The attribute engine (spec 4.1: data-svc-show / data-svc-hide / data-svc-member-info) in real
 * Chromium, against a floor: a hand-written single pass over an identical set of elements that
 * makes the same DOM writes and nothing else.
 *
 *   npm run bench:attributes        (npx tsx bench/attributes.ts [--rounds 40] [--reps 12]
 *                                    [--widget PATH] [--profile DIR])
 *
 * `--widget` serves another build of the widget (e.g. an unminified esbuild bundle, so a
 * profile has readable names); `--profile` records Chromium CPU profiles (start-up, each (a)
 * scenario's engine rounds, (b)) into DIR as .cpuprofile files (Chrome DevTools opens them) and
 * prints each one's top functions by self time. With either, the JSON record goes to DIR (or
 * the temp dir), not bench/results.
 *
 * One page holds 10,000 tagged elements (1,000 cards of 7 show/hide elements with auth, free,
 * paid and plan(...) criteria and 3 member-info elements, inside ordinary markup), watched by
 * the built dist/widgets.js, and the same 1,000 cards with `data-floor-*` attribute names in a
 * shadow root, where the engine neither sees them nor gets their mutation records, styled by
 * the same CSS and the same hiding rule. The member API is the service app on the mock
 * server's fixtures, in this process, on the page's own origin. The page is cross-origin
 * isolated (COOP/COEP), so performance.now() is precise to 5 µs instead of 100 µs.
 *
 * (a) a member change, made synchronously without the network: another member's token and
 *     cached MemberInfo are written to localStorage and a `storage` event is dispatched on the
 *     window (the widget's cross-tab path: watchers.ts → Session._sync → _apply → the engine's
 *     _render, all inside dispatchEvent); a logout removes the token. Timed from before the
 *     dispatch to after the mutation-observer microtasks and a forced layout
 *     (document.body.offsetHeight). Two scenarios, alternating two states: ada ↔ grace (both
 *     logged in: visibility flips, texts change in place) and ada ↔ nobody (login and logout:
 *     every text node replaced and put back). Target: median within 1.5× of the floor.
 * (b) 1,000 tagged elements appended in 10 batches of 100 (10 cards, one append each), member
 *     logged in: from before the append to after the mutation-observer callbacks (awaited
 *     microtasks) and a forced layout; the floor appends the same batch, then runs
 *     querySelectorAll on it and makes the same writes. Summed per repetition, median over
 *     repetitions. Target: within 2× of the floor.
 *
 * Engine and floor alternate, a frame apart, so both see the same machine. Prints a table with
 * PASS/MISS and writes bench/results/attributes-<timestamp>.json; exit 0 either way (a printed
 * figure, not a test), 1 only when it cannot measure.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getRequestListener } from '@hono/node-server';
import { launchHeadlessChromium } from '../scripts/lib/chromium';
import { createMockApp } from '../mock-server/app';
import { DEMO_FIXTURE } from '../mock-server/fixtures';
import { ensureBuild } from '../scripts/lib/ensure-build';
import { distDir, repoRoot } from '../scripts/lib/paths';
import type { MemberInfo } from '../src/contract/member';
import { fingerprint } from '../src/widget/member-cache';

const CARDS = 1_000;
const TAGGED_PER_CARD = 10; // 7 show/hide, 3 member info
const BATCH_CARDS = 10; // 100 tagged elements per appended batch
const BATCHES = 10;
const TARGET_CHANGE = 1.5;
const TARGET_APPEND = 2;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '40' },
    warmup: { type: 'string', default: '6' },
    reps: { type: 'string', default: '12' },
    widget: { type: 'string' },
    profile: { type: 'string' },
  },
});

/** The page's own CSS, for the light DOM and the floor's shadow root alike. */
const CSS = `
  body { font: 15px/1.4 sans-serif; margin: 0 16px; }
  .card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
  .card header { display: flex; justify-content: space-between; align-items: baseline; }
  .card nav { display: flex; gap: 8px; }
  .lesson { display: grid; grid-template-columns: 1fr 1fr; gap: 4px; }
  .upsell { background: #fef3c7; padding: 4px; }
  ul.plans { display: flex; gap: 12px; list-style: none; padding: 0; }
`;

interface Names {
  show: string;
  hide: string;
  info: string;
}
const ENGINE: Names = { show: 'data-svc-show', hide: 'data-svc-hide', info: 'data-svc-member-info' };
const FLOOR: Names = { show: 'data-floor-show', hide: 'data-floor-hide', info: 'data-floor-info' };

/** One card: 7 conditional elements and 3 member-info ones in ordinary markup. */
function card(i: number, { show, hide, info }: Names): string {
  return `<article class="card">
  <header><h3>Lesson ${i}</h3><nav><a href="#a${i}" ${show}="auth">Account</a><a href="#l${i}" ${hide}="auth">Log in</a></nav></header>
  <p>Hello <span ${info}="firstName">friend</span>, this is lesson ${i} of the course.</p>
  <div ${show}="paid" class="lesson"><p>The lesson, part one.</p><p>The lesson, part two.</p></div>
  <div ${hide}="paid" class="upsell"><a href="#u${i}">Upgrade</a> to read lesson ${i}.</div>
  <p ${show}="free">Notes from the community.</p>
  <ul class="plans"><li><span ${show}="plan(monthly)">Monthly edition</span></li><li><span ${show}="plan(lifetime, course3)">Lifetime edition</span></li></ul>
  <footer><span ${info}="name">Your name</span> · <span ${info}="email"><i>your e-mail</i></span></footer>
</article>`;
}
const cards = (count: number, names: Names) => Array.from({ length: count }, (_, i) => card(i, names)).join('\n');

/** Runs in the page: the floor, the measurements, the checks. Plain JS, no widget internals. */
const PAGE_SCRIPT = String.raw`
(function () {
  var HIDDEN = 'data-svc-hidden';
  var TOKEN = 'svc:demo:token', MEMBER = 'svc:demo:member';
  var now = function () { return performance.now(); };
  // After the mutation observers' callbacks, and those their own writes set off.
  var flush = async function () { await Promise.resolve(); await Promise.resolve(); await Promise.resolve(); };
  // Past the next paint, and out of the frame's own task.
  var frame = function () { return new Promise(function (r) { requestAnimationFrame(function () { setTimeout(r, 0); }); }); };

  // The criteria and member values, written directly: what any hand-written pass needs.
  var counted = function (m, test) {
    return !!m && m.memberships.some(function (x) { return x.status === 'active' && test(x); });
  };
  var KEYWORDS = {
    auth: function (m) { return !!m; },
    free: function (m) { return counted(m, function (x) { return x.type === 'free'; }); },
    paid: function (m) { return counted(m, function (x) { return x.type !== 'free'; }); },
  };
  var parsed = new Map();
  function parse(text) {
    if (text === null) return undefined;
    var c = parsed.get(text);
    if (c) return c;
    var plans = /^plan\s*\(([^()]*)\)$/i.exec(text.trim());
    if (plans) {
      var ids = plans[1].split(',').map(function (s) { return s.trim(); });
      c = function (m) { return counted(m, function (x) { return ids.indexOf(x.publicPlanId) >= 0 || ids.indexOf(String(x.planId)) >= 0; }); };
    } else c = KEYWORDS[text.trim().toLowerCase()] || function () { return false; };
    parsed.set(text, c);
    return c;
  }
  function valueOf(m, type) {
    if (!m) return undefined;
    return type === 'id' || type === 'firstName' || type === 'lastName' || type === 'name' || type === 'email' ? m[type] : undefined;
  }
  function renderVis(v, member) {
    var shown = (!v.show || v.show(member)) && !(v.hide && v.hide(member));
    if (shown === v.el.hasAttribute(HIDDEN)) v.el.toggleAttribute(HIDDEN, !shown);
  }
  function renderInfo(i, member) {
    var value = valueOf(member, i.type);
    var text = value === undefined ? '' : String(value);
    if (!text) {
      if (i.node) {
        if (i.node.parentNode === i.el) i.el.replaceChildren.apply(i.el, i.saved);
        i.node = i.saved = null;
      }
      return;
    }
    if (i.node && i.node.parentNode === i.el) {
      if (i.node.data !== text) i.node.data = text;
      return;
    }
    i.saved = Array.prototype.slice.call(i.el.childNodes);
    i.node = document.createTextNode(text);
    i.el.replaceChildren(i.node);
  }
  var VIS = '[data-floor-show],[data-floor-hide]', INFO = '[data-floor-info]';
  function collect(root, member, into) {
    var vis = root.querySelectorAll(VIS), info = root.querySelectorAll(INFO);
    for (var a = 0; a < vis.length; a++) {
      var v = { el: vis[a], show: parse(vis[a].getAttribute('data-floor-show')), hide: parse(vis[a].getAttribute('data-floor-hide')) };
      renderVis(v, member);
      if (into) into.vis.push(v);
    }
    for (var b = 0; b < info.length; b++) {
      var i = { el: info[b], type: info[b].getAttribute('data-floor-info').trim(), node: null, saved: null };
      renderInfo(i, member);
      if (into) into.info.push(i);
    }
  }

  var floor = { vis: [], info: [] };
  var shadow, member = null;
  function setUp() {
    var host = document.getElementById('floor');
    shadow = host.attachShadow({ mode: 'open' });
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(document.getElementById('page-css').textContent + '[' + HIDDEN + ']{display:none!important}');
    shadow.adoptedStyleSheets = [sheet];
    shadow.append(document.importNode(document.getElementById('floor-cards').content, true));
    var spa = document.createElement('div');
    spa.id = 'floor-spa';
    shadow.append(spa);
    document.body.offsetHeight;
    var t0 = now();
    collect(shadow, null, floor);
    return now() - t0;
  }

  /** What the page shows now, engine side and floor side, to check they agree. */
  function state(root) {
    var texts = root.querySelectorAll('[data-svc-member-info],[data-floor-info]');
    var t = [];
    for (var k = 0; k < texts.length; k++) t.push(texts[k].textContent);
    return {
      hidden: root.querySelectorAll('[' + HIDDEN + ']').length,
      tagged: root.querySelectorAll('[data-svc-show],[data-svc-hide],[data-floor-show],[data-floor-hide]').length + texts.length,
      texts: t.join('|'),
    };
  }
  function agree() {
    var e = state(document.getElementById('engine-side')), f = state(shadow);
    return { engine: { hidden: e.hidden, tagged: e.tagged }, floor: { hidden: f.hidden, tagged: f.tagged }, same: e.hidden === f.hidden && e.tagged === f.tagged && e.texts === f.texts };
  }

  async function engineChange(s) {
    if (s) {
      localStorage.setItem(MEMBER, s.cache);
      localStorage.setItem(TOKEN, s.token);
    } else localStorage.removeItem(TOKEN);
    var event = new StorageEvent('storage', { key: TOKEN });
    var t0 = now();
    window.dispatchEvent(event);
    await flush();
    var t1 = now();
    document.body.offsetHeight;
    return [now() - t0, t1 - t0];
  }
  async function floorChange(s) {
    var m = s ? s.member : null;
    var t0 = now();
    for (var a = 0; a < floor.vis.length; a++) renderVis(floor.vis[a], m);
    for (var b = 0; b < floor.info.length; b++) renderInfo(floor.info[b], m);
    await flush();
    var t1 = now();
    document.body.offsetHeight;
    member = m;
    return [now() - t0, t1 - t0];
  }
  /** Sets both sides to state s (untimed). */
  async function set(s) {
    await engineChange(s);
    await floorChange(s);
    await frame();
  }

  /** (a): alternating states[0], states[1], …; the page starts in neither's opposite. */
  async function change(states, rounds, warmup) {
    var engine = [], floorMs = [], engineScript = [], floorScript = [], checks = [];
    for (var r = 0; r < warmup + rounds; r++) {
      var s = states[r % 2];
      var e, f;
      await frame();
      if (r % 2) { f = await floorChange(s); await frame(); e = await engineChange(s); }
      else { e = await engineChange(s); await frame(); f = await floorChange(s); }
      if (r < 2) checks.push(agree());
      if (r >= warmup) { engine.push(e[0]); floorMs.push(f[0]); engineScript.push(e[1]); floorScript.push(f[1]); }
    }
    return { engine: engine, floor: floorMs, engineScript: engineScript, floorScript: floorScript, checks: checks };
  }

  /** (b): reps × batches appends of one batch template, engine and floor. */
  async function append(reps, batches, warmup) {
    var engineRoot = document.getElementById('engine-spa'), floorRoot = shadow.getElementById('floor-spa');
    var engineTpl = document.getElementById('engine-batch'), floorTpl = document.getElementById('floor-batch');
    var engine = [], floorMs = [], perBatchE = [], perBatchF = [], engineScript = [], floorScript = [], checks = [];
    var timeEngine = async function () {
      var c = document.createElement('section');
      c.append(document.importNode(engineTpl.content, true));
      await frame();
      var t0 = now();
      engineRoot.append(c);
      await flush();
      var t1 = now();
      document.body.offsetHeight;
      return [now() - t0, t1 - t0];
    };
    var timeFloor = async function () {
      var c = document.createElement('section');
      c.append(document.importNode(floorTpl.content, true));
      await frame();
      var t0 = now();
      floorRoot.append(c);
      collect(c, member, null);
      await flush();
      var t1 = now();
      document.body.offsetHeight;
      return [now() - t0, t1 - t0];
    };
    for (var r = 0; r < warmup + reps; r++) {
      var eSum = 0, fSum = 0, eScript = 0, fScript = 0;
      for (var b = 0; b < batches; b++) {
        var e, f;
        if ((r + b) % 2) { f = await timeFloor(); e = await timeEngine(); }
        else { e = await timeEngine(); f = await timeFloor(); }
        eSum += e[0]; fSum += f[0]; eScript += e[1]; fScript += f[1];
        if (r >= warmup) { perBatchE.push(e[0]); perBatchF.push(f[0]); }
      }
      if (r === warmup) {
        var es = state(engineRoot), fs = state(floorRoot);
        checks.push({ engine: { hidden: es.hidden, tagged: es.tagged }, floor: { hidden: fs.hidden, tagged: fs.tagged }, same: es.hidden === fs.hidden && es.tagged === fs.tagged && es.texts === fs.texts });
      }
      if (r >= warmup) { engine.push(eSum); floorMs.push(fSum); engineScript.push(eScript); floorScript.push(fScript); }
      engineRoot.replaceChildren();
      floorRoot.replaceChildren();
      await flush();
      await frame();
      await frame();
    }
    return { engine: engine, floor: floorMs, engineScript: engineScript, floorScript: floorScript, perBatchEngine: perBatchE, perBatchFloor: perBatchF, checks: checks };
  }

  window.bench = { setUp: setUp, set: set, change: change, append: append, agree: agree, isolated: window.crossOriginIsolated };
})();
`;

function pageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Attribute engine bench</title>
<style id="page-css">${CSS}</style>
<script>window.Service = { subdomain: 'demo' };</script>
<script>${PAGE_SCRIPT}</script>
</head>
<body>
<h1>Attribute engine bench</h1>
<main id="engine-side">
${cards(CARDS, ENGINE)}
<div id="engine-spa"></div>
</main>
<div id="floor"></div>
<template id="floor-cards">${cards(CARDS, FLOOR)}</template>
<template id="engine-batch">${cards(BATCH_CARDS, ENGINE)}</template>
<template id="floor-batch">${cards(BATCH_CARDS, FLOOR)}</template>
<script src="/scripts/widgets.js"></script>
</body>
</html>`;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const percentile = (xs: number[], p: number) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const median = (xs: number[]) => {
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ms = (n: number) => n.toFixed(2);

/** Per round (a) or repetition (b): total ms, and the script part before the forced layout. */
interface Samples {
  engine: number[];
  floor: number[];
  engineScript: number[];
  floorScript: number[];
  checks: { same: boolean }[];
}

interface Row {
  name: string;
  engine: { p50: number; p95: number };
  floor: { p50: number; p95: number };
  ratio: number;
  target: number | undefined;
  pass: boolean | undefined;
  samples: number;
}

/**
 * CPU profiles over the page's life: `lap(name)` ends the profile running since the last lap
 * (saved as DIR/<name>.cpuprofile, its top functions by self time printed; null discards it)
 * and starts the next. Both sides run in each lap: the floor shows as the page's own functions.
 */
async function startProfiler(page: import('playwright-core').Page, dir: string) {
  mkdirSync(dir, { recursive: true });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return {
    async lap(name: string | null) {
      const { profile } = await cdp.send('Profiler.stop');
      if (name) {
        writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
        const self = new Map<string, number>();
        const byId = new Map(profile.nodes.map((node) => [node.id, node]));
        profile.samples?.forEach((id, i) => {
          const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
          const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\//, '')}:${lineNumber + 1}:${columnNumber + 1}` : ''}`.trim();
          self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
        });
        const total = [...self.values()].reduce((a, b) => a + b, 0);
        const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 18);
        log(`profile ${name} (${ms(total)} ms sampled), top self time:\n${top.map(([k, v]) => `    ${ms(v).padStart(9)} ms  ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`).join('\n')}`);
      }
      await cdp.send('Profiler.start');
    },
  };
}

function row(name: string, engine: number[], floor: number[], target?: number): Row {
  const ratio = median(engine) / median(floor);
  return {
    name,
    engine: { p50: median(engine), p95: percentile(engine, 95) },
    floor: { p50: median(floor), p95: percentile(floor, 95) },
    ratio,
    target,
    pass: target === undefined ? undefined : ratio <= target,
    samples: engine.length,
  };
}

function table(rows: Row[]): string {
  const head = ['what', 'engine p50', 'p95', 'floor p50', 'p95', 'engine/floor', 'target', ''];
  const body = rows.map((r) => [
    r.name,
    `${ms(r.engine.p50)} ms`,
    `${ms(r.engine.p95)} ms`,
    `${ms(r.floor.p50)} ms`,
    `${ms(r.floor.p95)} ms`,
    `${r.ratio.toFixed(2)}×`,
    r.target === undefined ? '-' : `≤ ${r.target}×`,
    r.pass === undefined ? '' : r.pass ? 'PASS' : 'MISS',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)].join('\n');
}

async function main(): Promise<number> {
  const build = await ensureBuild(['widget']);
  if (build === 'failed' || build === 'no-widget') {
    log(`cannot build dist/widgets.js (${build})`);
    return 1;
  }
  const mock = await createMockApp();
  const api = getRequestListener((request) => mock.app.fetch(request));
  const html = pageHtml();
  // Stamped before and after, to time its run alone: a parser-blocking script may wait while
  // the browser draws the page above it, which a timestamp around the element would include.
  const widget = Buffer.concat([
    Buffer.from('window.__widgetStart = performance.now();\n'),
    readFileSync(args.widget ?? join(distDir, 'widgets.js')),
    Buffer.from('\n;window.__widgetEnd = performance.now();\n'),
  ]);
  const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://bench').pathname;
    if (path.startsWith('/member/')) return api(request, response);
    if (path === '/scripts/widgets.js') {
      return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store', ...isolation }).end(widget);
    }
    if (path === '/favicon.ico') return void response.writeHead(204).end();
    if (path === '/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...isolation }).end(html);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Two members' sessions, as the member API gives them: the states the page switches between.
  const session = async (key: string) => {
    const { email, password } = DEMO_FIXTURE.members.find((m) => m.key === key)!;
    const response = await fetch(`${origin}/member/v1/sites/demo/sessions`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (response.status !== 200 && response.status !== 201) throw new Error(`sign-in of ${key} answered ${response.status}`);
    const { token, memberInfo } = (await response.json()) as { token: string; memberInfo: MemberInfo };
    return { token, member: memberInfo, cache: JSON.stringify({ f: fingerprint(token), m: memberInfo }) };
  };
  const ada = await session('ada');
  const grace = await session('grace');

  const browser = await launchHeadlessChromium();
  try {
    const context = await browser.newContext(); // a fresh profile: playwright's temporary user-data-dir
    const page = await context.newPage();
    const profiler = args.profile ? await startProfiler(page, args.profile) : undefined;
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as unknown as { Service?: { ready?: boolean } }).Service?.ready === true, undefined, { timeout: 20_000 });
    type Bench = {
      setUp(): number;
      set(s: unknown): Promise<void>;
      change(states: readonly unknown[], rounds: number, warmup: number): Promise<Samples>;
      append(reps: number, batches: number, warmup: number): Promise<Samples & { perBatchEngine: number[]; perBatchFloor: number[] }>;
      isolated: boolean;
    };
    const start = await page.evaluate(() => {
      const w = window as unknown as { bench: Bench; __widgetStart: number; __widgetEnd: number };
      return { widget: w.__widgetEnd - w.__widgetStart, floor: w.bench.setUp(), isolated: w.bench.isolated };
    });
    const version = browser.version();
    const rounds = Number(args.rounds);
    const warmup = Number(args.warmup);
    const reps = Number(args.reps);
    log(`Chromium ${version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), crossOriginIsolated=${start.isolated}`);
    log(`(a) member change, ${rounds} rounds after ${warmup} warm-up, per scenario…`);

    await profiler?.lap('start-up');
    await page.evaluate((s) => (window as unknown as { bench: Bench }).bench.set(s), ada);
    await profiler?.lap(null);
    const switchMembers = await page.evaluate(
      ([states, r, w]) => (window as unknown as { bench: Bench }).bench.change(states, r, w),
      [[grace, ada], rounds, warmup] as const,
    );
    await profiler?.lap('a-switch');
    const loginLogout = await page.evaluate(
      ([states, r, w]) => (window as unknown as { bench: Bench }).bench.change(states, r, w),
      [[null, ada], rounds, warmup] as const,
    );
    await profiler?.lap('a-login-logout');
    log(`(b) ${BATCHES} × ${BATCH_CARDS * TAGGED_PER_CARD} appended, ${reps} repetitions after 2 warm-up…`);
    await page.evaluate((s) => (window as unknown as { bench: Bench }).bench.set(s), ada);
    await profiler?.lap(null);
    const appended = await page.evaluate(
      ([r, b]) => (window as unknown as { bench: Bench }).bench.append(r, b, 2),
      [reps, BATCHES] as const,
    );
    await profiler?.lap('b-append');
    const agreeing = [...switchMembers.checks, ...loginLogout.checks, ...appended.checks];
    if (errors.length > 0) log(`page errors: ${errors.join(' | ')}`);

    const rows = [
      row('(a) member change ada ↔ grace', switchMembers.engine, switchMembers.floor, TARGET_CHANGE),
      row('(a) login ↔ logout (ada ↔ nobody)', loginLogout.engine, loginLogout.floor, TARGET_CHANGE),
      row(`(b) ${BATCHES} × ${BATCH_CARDS * TAGGED_PER_CARD} appended (sum)`, appended.engine, appended.floor, TARGET_APPEND),
      row(`    one batch of ${BATCH_CARDS * TAGGED_PER_CARD}`, appended.perBatchEngine, appended.perBatchFloor),
    ];
    const scriptRows = [
      row('(a) member change ada ↔ grace', switchMembers.engineScript, switchMembers.floorScript),
      row('(a) login ↔ logout (ada ↔ nobody)', loginLogout.engineScript, loginLogout.floorScript),
      row(`(b) ${BATCHES} × ${BATCH_CARDS * TAGGED_PER_CARD} appended (sum)`, appended.engineScript, appended.floorScript),
    ];
    const tagged = CARDS * TAGGED_PER_CARD;
    const lines = [
      `Attribute engine vs a hand-written floor, ${tagged.toLocaleString('en-US')} tagged elements (${(CARDS * 7).toLocaleString('en-US')} show/hide, ` +
        `${(CARDS * 3).toLocaleString('en-US')} member info) in ${CARDS.toLocaleString('en-US')} cards`,
      `Chromium ${version}, ${availableParallelism()} cores; (a) ${rounds} rounds, (b) ${reps} repetitions; times include the forced style and layout`,
      '',
      table(rows),
      '',
      'of which script only (before the forced style and layout; no target):',
      table(scriptRows),
      '',
      `start-up (no target): widgets.js ran ${ms(start.widget)} ms (compile, start, first pass over ` +
        `${tagged.toLocaleString('en-US')} elements, logged out; no layout); the floor's first pass ${ms(start.floor)} ms (no layout)`,
      `engine and floor agree on the page after each change: ${agreeing.every((c) => c.same) ? 'yes' : `NO ${JSON.stringify(agreeing)}`}`,
    ];
    console.log(lines.join('\n'));

    // A profiled run or another widget build is not a figure for bench/results.
    const dir = args.profile ?? (args.widget ? tmpdir() : join(repoRoot, 'bench', 'results'));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `attributes-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const record = {
      bench: 'attributes',
      date: new Date().toISOString(),
      chromium: version,
      cores: availableParallelism(),
      crossOriginIsolated: start.isolated,
      elements: { tagged, cards: CARDS, showHide: CARDS * 7, memberInfo: CARDS * 3, batch: BATCH_CARDS * TAGGED_PER_CARD, batches: BATCHES },
      options: { rounds, warmup, reps },
      startUp: start,
      rows,
      scriptRows,
      agree: agreeing.every((c) => c.same),
      samples: { switchMembers, loginLogout, appended },
      pageErrors: errors,
    };
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
    log(`wrote ${path}`);
    return 0;
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
