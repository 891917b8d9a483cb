// @vitest-environment happy-dom
/** The attribute engine's parts on their own: criteria, the checkbox labels, the element observer. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { MemberInfo, Membership, WidgetPlanType } from '../../../src/contract/member';
import type { SiteConfig } from '../../../src/contract/member';
import type { ApiRequest } from '../../../src/widget/api-client';
import { parseCriterion } from '../../../src/widget/attributes/criteria';
import { ElementObserver, type ElementObserverDelegate } from '../../../src/widget/attributes/element-observer';
import { stillArriving } from '../../../src/widget/attributes/names';
import { checkboxLabels, LABELS_MAX_AGE_MS } from '../../../src/widget/checkbox-labels';
import type { KeyValueStore } from '../../../src/widget/storage';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

// parseCriterion

function membership(publicPlanId: string, planId: number, type: WidgetPlanType, status = 'active'): Membership {
  return {
    id: planId * 10,
    planId,
    publicPlanId,
    name: publicPlanId,
    type,
    createdAt: '2026-01-01T00:00:00.000Z',
    status,
    paymentFailure: false,
    welcomeUrl: 'https://demo.localhost/',
    contentUrl: 'https://demo.localhost/',
  };
}

function member(...memberships: Membership[]): MemberInfo {
  return {
    id: 1,
    name: 'Ada Lovelace',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@demo.localhost',
    profileImageUrl: 'data:image/svg+xml,x',
    memberships,
    customSignupFields: [],
  };
}

/** Whether `text` parses and matches `who`; throws when it does not parse. */
function matches(text: string, who: MemberInfo | null): boolean {
  const criterion = parseCriterion(text);
  if (!criterion) throw new Error(`"${text}" did not parse`);
  return criterion(who);
}

const community = membership('community', 1, 'free');
const lifetime = membership('lifetime', 2, 'one_time_payment');
const course = membership('course3', 3, 'multi_payment');
const monthly = membership('monthly', 4, 'subscription');

test('parseCriterion: auth matches any member, nothing matches nobody', () => {
  expect(matches('auth', member())).toBe(true);
  for (const text of ['auth', 'free', 'paid', 'plan(monthly)', 'plan(1,2,3,4)']) expect(matches(text, null)).toBe(false);
});

test('parseCriterion: free is a free plan; paid is any other type', () => {
  expect([matches('free', member(community)), matches('paid', member(community))]).toEqual([true, false]);
  for (const paid of [lifetime, course, monthly]) {
    expect([matches('free', member(paid)), matches('paid', member(paid))]).toEqual([false, true]);
  }
  expect([matches('free', member()), matches('paid', member())]).toEqual([false, false]);
  expect([matches('free', member(community, monthly)), matches('paid', member(community, monthly))]).toEqual([true, true]);
});

test('parseCriterion: only active memberships count', () => {
  for (const status of ['cancelled', 'expired', 'pending', 'Active']) {
    const who = member(membership('community', 1, 'free', status), membership('monthly', 4, 'subscription', status));
    expect(['free', 'paid', 'plan(monthly)', 'plan(1)', 'auth'].map((text) => matches(text, who))).toEqual([false, false, false, false, true]);
  }
  const mixed = member(membership('monthly', 4, 'subscription', 'cancelled'), community);
  expect([matches('paid', mixed), matches('free', mixed), matches('plan(monthly)', mixed)]).toEqual([false, true, false]);
});

test('parseCriterion: plan(n) matches the public plan id or the numeric plan id; lists match any', () => {
  const who = member(community, monthly);
  expect(matches('plan(monthly)', who)).toBe(true);
  expect(matches('plan(4)', who)).toBe(true);
  expect(matches('plan(lifetime)', who)).toBe(false);
  expect(matches('plan(2)', who)).toBe(false);
  expect(matches('plan(lifetime,monthly)', who)).toBe(true);
  expect(matches('plan(2,3,1)', who)).toBe(true);
  expect(matches('plan(lifetime,course3,2)', who)).toBe(false);
  expect(matches('plan(month)', who)).toBe(false);
});

test('parseCriterion: whitespace anywhere between parts, keywords in any case, plan ids case-sensitive', () => {
  const who = member(community, monthly);
  for (const text of [' auth ', '\nAUTH\t', 'Free', 'PAID', 'plan ( monthly )', 'PLAN(monthly)', 'Plan(\tlifetime ,\n monthly )']) {
    expect(matches(text, who), text).toBe(true);
  }
  expect(matches('plan(Monthly)', who)).toBe(false);
  expect(matches('plan(MONTHLY)', who)).toBe(false);
});

test('parseCriterion: anything else is null', () => {
  for (const text of [
    '', ' ', 'bogus', 'authenticated', 'auth paid', 'auth,paid', 'plan', 'plan()', 'plan( )', 'plan(a,,b)', 'plan(a,)',
    'plan(,a)', 'plan(monthly', 'plan monthly', 'plan(a)(b)', 'plan((a))', 'plans(a)', 'free()', 'plan(a) x', '!auth',
  ]) {
    expect(parseCriterion(text), JSON.stringify(text)).toBeNull();
  }
});

// checkboxLabels

function memoryStore(entries: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(entries));
  return {
    data,
    _get: (key) => data.get(key) ?? null,
    _set: (key, value) => void data.set(key, value),
    _remove: (key) => void data.delete(key),
  };
}

/** A request function whose answers the test gives, one pending promise per call. */
function fakeRequest() {
  const calls: { method: string; path: string; resolve(value: unknown): void; reject(error: Error): void }[] = [];
  const request = (<T>(method: string, path: string) =>
    new Promise<T>((resolve, reject) => {
      calls.push({ method, path, resolve: resolve as (value: unknown) => void, reject });
    })) as ApiRequest;
  return { request, calls };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
/** What the widget passes in: GET /config through the request function. */
const configFrom = (request: ApiRequest) => () => request<SiteConfig>('GET', '/config');
const KEY = 'svc:demo:labels';
const stored = (yes: string, no: string, savedAt: number) => JSON.stringify([yes, no, savedAt]);

test('checkboxLabels: nothing stored: null, one GET /config, then its labels, stored, and _loaded once', async () => {
  const { request, calls } = fakeRequest();
  const store = memoryStore();
  const labels = checkboxLabels(configFrom(request), store, KEY);
  const loaded = vi.fn();
  labels._loaded = loaded;
  expect(labels._get()).toBeNull();
  expect(labels._get()).toBeNull(); // asked again while the answer is on its way: no second request
  expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /config']);
  calls[0]!.resolve({ subdomain: 'demo', locale: 'de', checkboxLabels: { yes: 'Ja', no: 'Nein' }, signupFields: [] });
  await flush();
  expect(loaded).toHaveBeenCalledTimes(1);
  expect(labels._get()).toEqual(['Ja', 'Nein']);
  const [yes, no, savedAt] = JSON.parse(store.data.get(KEY)!) as [string, string, number];
  expect([yes, no]).toEqual(['Ja', 'Nein']);
  expect(Math.abs(Date.now() - savedAt)).toBeLessThan(5_000);
  expect(calls).toHaveLength(1);
});

test('checkboxLabels: fresh stored labels are answered at once, with no request', () => {
  const { request, calls } = fakeRequest();
  const labels = checkboxLabels(configFrom(request), memoryStore({ [KEY]: stored('Oui', 'Non', Date.now() - LABELS_MAX_AGE_MS + 60_000) }), KEY);
  expect(labels._get()).toEqual(['Oui', 'Non']);
  expect(labels._get()).toEqual(['Oui', 'Non']);
  expect(calls).toHaveLength(0);
});

test('checkboxLabels: stale stored labels are answered at once and fetched again, once', async () => {
  const { request, calls } = fakeRequest();
  const store = memoryStore({ [KEY]: stored('Oui', 'Non', Date.now() - LABELS_MAX_AGE_MS - 60_000) });
  const labels = checkboxLabels(configFrom(request), store, KEY);
  const loaded = vi.fn();
  labels._loaded = loaded;
  expect(labels._get()).toEqual(['Oui', 'Non']);
  expect(labels._get()).toEqual(['Oui', 'Non']);
  expect(calls).toHaveLength(1);
  calls[0]!.resolve({ locale: 'it', checkboxLabels: { yes: 'Sì', no: 'No' } });
  await flush();
  expect(labels._get()).toEqual(['Sì', 'No']);
  expect(loaded).toHaveBeenCalledTimes(1);
  expect((JSON.parse(store.data.get(KEY)!) as unknown[]).slice(0, 2)).toEqual(['Sì', 'No']);
  expect(calls).toHaveLength(1);
});

test('checkboxLabels: another site’s key is not read', () => {
  const { request, calls } = fakeRequest();
  const labels = checkboxLabels(configFrom(request), memoryStore({ 'svc:other:labels': stored('Ja', 'Nein', Date.now()) }), KEY);
  expect(labels._get()).toBeNull();
  expect(calls).toHaveLength(1);
});

test('checkboxLabels: an unreadable stored value is fetched again', () => {
  for (const bad of ['not json', '"Ja"', '["Ja", "Nein"]', '["Ja", 2, 3]', '[1, 2, 3]', '{"yes":"Ja","no":"Nein"}', 'null']) {
    const { request, calls } = fakeRequest();
    const labels = checkboxLabels(configFrom(request), memoryStore({ [KEY]: bad }), KEY);
    expect(labels._get(), bad).toBeNull();
    expect(calls, bad).toHaveLength(1);
  }
});

test('checkboxLabels: a failed fetch makes them English, warns once, and is not retried', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { request, calls } = fakeRequest();
  const store = memoryStore();
  const labels = checkboxLabels(configFrom(request), store, KEY);
  const loaded = vi.fn();
  labels._loaded = loaded;
  expect(labels._get()).toBeNull();
  calls[0]!.reject(new Error('The service could not be reached.'));
  await flush();
  expect(labels._get()).toEqual(['Yes', 'No']);
  expect(loaded).toHaveBeenCalledTimes(1);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] /);
  expect(labels._get()).toEqual(['Yes', 'No']);
  expect(calls).toHaveLength(1);
  expect(store.data.has(KEY)).toBe(false); // English is a stand-in, not the site's answer
});

test('checkboxLabels: a failed refetch of stale labels keeps the stored ones', async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const { request, calls } = fakeRequest();
  const labels = checkboxLabels(configFrom(request), memoryStore({ [KEY]: stored('Ja', 'Nein', 0) }), KEY);
  const loaded = vi.fn();
  labels._loaded = loaded;
  expect(labels._get()).toEqual(['Ja', 'Nein']);
  calls[0]!.reject(new Error('down'));
  await flush();
  expect(labels._get()).toEqual(['Ja', 'Nein']);
  expect(loaded).not.toHaveBeenCalled();
});

// ElementObserver

/** A delegate that records its calls as `matched #id` and so on; `allow` is its own test. */
function recorder(allow: (element: Element) => boolean = () => true) {
  const calls: string[] = [];
  const name = (element: Element) => `#${element.id}`;
  const delegate: ElementObserverDelegate = {
    _matchElement: (element) => allow(element),
    _elementMatched: (element) => void calls.push(`matched ${name(element)}`),
    _elementUnmatched: (element) => void calls.push(`unmatched ${name(element)}`),
    _elementAttributeChanged: (element) => void calls.push(`changed ${name(element)}`),
  };
  return { calls, delegate, take: () => calls.splice(0) };
}

let root: HTMLElement;

beforeEach(() => {
  document.body.innerHTML = `<div id="outside" data-x="1"></div><div id="root"></div>`;
  root = document.getElementById('root')!;
});

function observer(allow?: (element: Element) => boolean) {
  const r = recorder(allow);
  const o = new ElementObserver(root, '[data-x]', ['data-x'], r.delegate);
  return { ...r, o };
}

const el = (id: string) => document.getElementById(id)!;
const tick = () => Promise.resolve();

test('ElementObserver: start matches what is there (the selector and the delegate’s test), once however often called', () => {
  root.innerHTML = `<p id="a" data-x="1"><span id="b" data-x></span><span id="c"></span></p><i id="d" data-x="skip"></i><b id="e" data-y></b>`;
  const { o, take } = observer((element) => element.getAttribute('data-x') !== 'skip');
  o._start();
  expect(take()).toEqual(['matched #a', 'matched #b']);
  o._start();
  o._refresh();
  o._refresh();
  expect(take()).toEqual([]);
  expect([...o._elements].map((e) => e.id)).toEqual(['a', 'b']);
});

test('ElementObserver: stop unmatches each element once, disconnects, and is safe twice; refresh after stop does nothing', async () => {
  root.innerHTML = `<p id="a" data-x></p><p id="b" data-x></p>`;
  const { o, take } = observer();
  o._start();
  take();
  o._stop();
  expect(take().sort()).toEqual(['unmatched #a', 'unmatched #b']);
  o._stop();
  o._refresh();
  root.insertAdjacentHTML('beforeend', `<p id="c" data-x></p>`);
  el('a').setAttribute('data-x', '2');
  el('b').remove();
  await tick();
  expect(take()).toEqual([]);
  expect(o._elements.size).toBe(0);
  o._start(); // and it can start again
  expect(take()).toEqual(['matched #a', 'matched #c']);
});

test('ElementObserver: added elements, nested ones included, are matched', async () => {
  const { o, take } = observer();
  o._start();
  const section = document.createElement('section');
  section.id = 's';
  section.innerHTML = `<p id="a" data-x><b id="b" data-x></b></p><i id="c"></i>`;
  root.append(section);
  await tick();
  expect(take()).toEqual(['matched #a', 'matched #b']);
  const top = document.createElement('p');
  top.id = 'top';
  top.setAttribute('data-x', '');
  el('c').append(top);
  await tick();
  expect(take()).toEqual(['matched #top']);
});

test('ElementObserver: removed elements, nested ones included, are unmatched', async () => {
  root.innerHTML = `<section id="s"><p id="a" data-x><b id="b" data-x></b></p></section><p id="c" data-x></p>`;
  const { o, take } = observer();
  o._start();
  take();
  el('s').remove();
  await tick();
  expect(take()).toEqual(['unmatched #a', 'unmatched #b']);
  root.replaceChildren();
  await tick();
  expect(take()).toEqual(['unmatched #c']);
  expect(o._elements.size).toBe(0);
});

test('ElementObserver: a move within the root ends matched; a move out of it unmatches', async () => {
  root.innerHTML = `<div id="one"><p id="a" data-x></p></div><div id="two"></div>`;
  const { o, take } = observer();
  o._start();
  take();
  el('two').append(el('a'));
  await tick();
  const calls = take();
  expect(calls.at(-1)).toBe('matched #a');
  expect(calls.filter((c) => c === 'matched #a')).toHaveLength(1);
  expect(o._elements.has(el('a'))).toBe(true);
  el('outside').append(el('a'));
  await tick();
  expect(take()).toEqual(['unmatched #a']);
  expect(o._elements.size).toBe(0);
});

test('ElementObserver: an attribute added matches, changed notifies, removed unmatches', async () => {
  root.innerHTML = `<p id="a"></p>`;
  const { o, take } = observer();
  o._start();
  el('a').setAttribute('data-x', '1');
  await tick();
  expect(take()).toEqual(['matched #a']);
  el('a').setAttribute('data-x', '2');
  await tick();
  expect(take()).toEqual(['changed #a']);
  el('a').removeAttribute('data-x');
  await tick();
  expect(take()).toEqual(['unmatched #a']);
  el('a').setAttribute('data-x', '3');
  await tick();
  expect(take()).toEqual(['matched #a']);
});

test('ElementObserver: a change that fails the delegate’s test unmatches, and passing it again matches', async () => {
  root.innerHTML = `<p id="a" data-x="ok"></p>`;
  const { o, take } = observer((element) => element.getAttribute('data-x') === 'ok');
  o._start();
  take();
  el('a').setAttribute('data-x', 'no');
  await tick();
  expect(take()).toEqual(['unmatched #a']);
  el('a').setAttribute('data-x', 'ok');
  await tick();
  expect(take()).toEqual(['matched #a']);
});

test('ElementObserver: no call for elements outside the selector or outside the root, nor for other attributes', async () => {
  root.innerHTML = `<p id="a" data-x></p><p id="b"></p>`;
  const { o, take } = observer();
  o._start();
  take();
  root.insertAdjacentHTML('beforeend', `<p id="c" data-y></p><span id="d" class="x"></span>`);
  el('b').setAttribute('data-y', '1');
  el('a').setAttribute('class', 'changed');
  el('a').textContent = 'text';
  el('outside').setAttribute('data-x', '2');
  document.body.insertAdjacentHTML('beforeend', `<p id="e" data-x></p>`);
  el('e').remove();
  el('outside').remove();
  await tick();
  expect(take()).toEqual([]);
});

test('ElementObserver: an element added and removed before the callback gets no call', async () => {
  const { o, take } = observer();
  o._start();
  const p = document.createElement('p');
  p.id = 'a';
  p.setAttribute('data-x', '');
  root.append(p);
  p.remove();
  await tick();
  expect(take()).toEqual([]);
  expect(o._elements.size).toBe(0);
});

test('ElementObserver: refresh takes in pending changes at once and re-checks the delegate’s test', () => {
  root.innerHTML = `<p id="a" data-x></p>`;
  let allowed = true;
  const { o, take } = observer(() => allowed);
  o._start();
  take();
  root.insertAdjacentHTML('beforeend', `<p id="b" data-x></p>`);
  o._refresh(); // before the observer's callback
  expect(take()).toEqual(['matched #b']);
  allowed = false;
  o._refresh();
  expect(take().sort()).toEqual(['unmatched #a', 'unmatched #b']);
});

// stillArriving

test('stillArriving: while the document loads, only an element on its last-child edge may still get content', () => {
  document.body.innerHTML = '<p id="done">Hello, <span id="closed">friend</span>!</p><p id="open">Name: <span id="edge"></span></p>';
  const $ = (id: string) => document.getElementById(id)!;
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
  expect(['done', 'closed', 'open', 'edge'].map((id) => stillArriving($(id)))).toEqual([false, false, true, true]);
  $('open').after(document.createElement('footer')); // the parser went on past it
  expect(stillArriving($('edge'))).toBe(false);
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
  document.body.append(document.createElement('span'));
  expect(stillArriving(document.body.lastElementChild!)).toBe(false);
});
