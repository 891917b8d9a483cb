// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** data-svc-show and data-svc-hide (spec 4.1, "Showing and hiding elements"). */
import { waitFor } from '@testing-library/dom';
import { beforeEach, expect, test } from 'vitest';
import { ADA, GRACE, harness, joinCommunity, recordEvents } from '../support';
import { $, addMember, addMembership, demo, display, HIDDEN, isShown, ready, silenceWarnings } from './support';

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

/** One show- and one hide-element per criterion, ids `s<i>` and `h<i>`. */
function criteriaPage(criteria: string[]): void {
  document.body.innerHTML = criteria
    .map((c, i) => `<div id="s${i}" data-svc-show="${c}">show ${c}</div><div id="h${i}" data-svc-hide="${c}">hide ${c}</div>`)
    .join('');
}

/** Which criteria match now, judged from what is on screen; checks each hide is the inverse. */
function matching(criteria: string[]): string[] {
  return criteria.filter((c, i) => {
    const shown = isShown(`s${i}`);
    expect(isShown(`h${i}`), `hide="${c}" is the inverse of show`).toBe(!shown);
    expect($(`s${i}`).hasAttribute(HIDDEN)).toBe(!shown);
    return shown;
  });
}

test('with nobody logged in, every show-element is hidden and every hide-element shown', async () => {
  const criteria = ['auth', 'free', 'paid', 'plan(monthly)', 'plan(community,lifetime)'];
  criteriaPage(criteria);
  await ready();
  expect(matching(criteria)).toEqual([]);
  for (let i = 0; i < criteria.length; i++) {
    expect(display(`s${i}`)).toBe('none');
    expect(display(`h${i}`)).toBe('block');
  }
});

test('Ada (free community plan, paid monthly subscription) matches auth, free, paid and her plans only', async () => {
  const criteria = [
    'auth', 'free', 'paid', 'plan(monthly)', 'plan(community)', 'plan(lifetime)', 'plan(course3)',
    'plan(lifetime,monthly)', 'plan(founders,course3)', 'plan(course)',
  ];
  criteriaPage(criteria);
  const h = await ready();
  await h.service.login(ADA);
  expect(matching(criteria)).toEqual(['auth', 'free', 'paid', 'plan(monthly)', 'plan(community)', 'plan(lifetime,monthly)']);
});

test('Grace (no plans) matches auth only', async () => {
  const criteria = ['auth', 'free', 'paid', 'plan(monthly)', 'plan(community)'];
  criteriaPage(criteria);
  const h = await ready();
  await h.service.login(GRACE);
  expect(matching(criteria)).toEqual(['auth']);
});

test('plan(n) also matches the numeric plan id', async () => {
  const h0 = await harness();
  const { planIds } = demo(h0);
  const criteria = [`plan(${planIds.monthly})`, `plan(${planIds.lifetime})`, `plan(${planIds.lifetime}, ${planIds.community})`];
  criteriaPage(criteria);
  h0.start();
  await waitFor(() => expect(h0.service.ready).toBe(true));
  await h0.service.login(ADA);
  expect(matching(criteria)).toEqual([criteria[0], criteria[2]]);
});

test('whitespace is tolerated around the keyword, the parentheses and the ids', async () => {
  const criteria = [' auth ', '\tpaid\n', 'plan( monthly )', 'plan ( lifetime ,  monthly )', ' plan(community,course3) '];
  criteriaPage(criteria);
  const h = await ready();
  await h.service.login(ADA);
  expect(matching(criteria)).toEqual(criteria);
});

test('keywords are case-insensitive, plan ids case-sensitive', async () => {
  const criteria = ['AUTH', 'Free', 'pAiD', 'PLAN(monthly)', 'Plan(community)', 'plan(Monthly)', 'plan(COMMUNITY)'];
  criteriaPage(criteria);
  const h = await ready();
  await h.service.login(ADA);
  expect(matching(criteria)).toEqual(['AUTH', 'Free', 'pAiD', 'PLAN(monthly)', 'Plan(community)']);
});

test('one_time_payment and multi_payment plans count as paid, not free', async () => {
  const criteria = ['free', 'paid', 'plan(lifetime)', 'plan(course3)'];
  criteriaPage(criteria);
  const h = await ready();
  await addMembership(h, 'grace', 'lifetime');
  await h.service.login(GRACE);
  expect(matching(criteria)).toEqual(['paid', 'plan(lifetime)']);

  const other = await addMember(h);
  await addMembership(h, other.id, 'course');
  await h.service.login(other);
  expect(matching(criteria)).toEqual(['paid', 'plan(course3)']);
});

test('a free plan alone matches free, not paid', async () => {
  const criteria = ['free', 'paid', 'plan(community)'];
  criteriaPage(criteria);
  const h = await ready();
  await joinCommunity(h.mock, 'grace');
  await h.service.login(GRACE);
  expect(matching(criteria)).toEqual(['free', 'plan(community)']);
});

test('cancelled and expired memberships do not count', async () => {
  const criteria = ['auth', 'free', 'paid', 'plan(community)', 'plan(lifetime)'];
  criteriaPage(criteria);
  const h = await ready();
  const member = await addMember(h);
  await addMembership(h, member.id, 'community', 'cancelled');
  await addMembership(h, member.id, 'lifetime', 'expired');
  const info = await h.service.login(member);
  expect(info.memberships.map((m) => m.status).sort()).toEqual(['cancelled', 'expired']);
  expect(matching(criteria)).toEqual(['auth']);
});

test('a membership past its expiry date does not count (the service reports it expired)', async () => {
  // Relies on the service reporting an active membership whose expiresAt has passed as expired.
  const criteria = ['auth', 'paid', 'plan(lifetime)', 'free', 'plan(community)'];
  criteriaPage(criteria);
  const h = await ready();
  const member = await addMember(h);
  await addMembership(h, member.id, 'lifetime', 'active', { expiresAt: Date.now() - 60_000 });
  await addMembership(h, member.id, 'community', 'active', { expiresAt: Date.now() + 86_400_000 });
  await h.service.login(member);
  expect(matching(criteria)).toEqual(['auth', 'free', 'plan(community)']);
});

test('an unknown criterion warns once, naming the element, and never matches', async () => {
  const warn = silenceWarnings();
  const criteria = ['bogus', 'plan()', 'plan(a,,b)', 'plan(monthly', 'auth paid'];
  criteriaPage(criteria);
  const h = await ready();
  expect(warn).toHaveBeenCalledTimes(criteria.length * 2);
  for (const [i, c] of criteria.entries()) {
    for (const id of [`s${i}`, `h${i}`]) {
      const calls = warn.mock.calls.filter((call) => call.includes($(id)));
      expect(calls, `one warning for #${id}`).toHaveLength(1);
      expect(String(calls[0]![0])).toMatch(/^\[Service\] /);
      expect(String(calls[0]![0])).toContain(c);
    }
  }
  // Logged out: a show-element stays hidden, a hide-element visible.
  expect(matching(criteria)).toEqual([]);
  // Logged in as Ada, who is on monthly and paid: still no match, and no new warning.
  await h.service.login(ADA);
  expect(matching(criteria)).toEqual([]);
  await h.service.logout();
  expect(matching(criteria)).toEqual([]);
  expect(warn).toHaveBeenCalledTimes(criteria.length * 2);
});

test('a show and a hide with the same criterion swap content and placeholder', async () => {
  document.body.innerHTML = `
    <div id="content" data-svc-show="plan(monthly)">Your monthly content</div>
    <div id="placeholder" data-svc-hide="plan(monthly)">Subscribe to read this</div>`;
  const h = await ready();
  expect([isShown('content'), isShown('placeholder')]).toEqual([false, true]);
  await h.service.login(ADA);
  expect([isShown('content'), isShown('placeholder')]).toEqual([true, false]);
  await h.service.login(GRACE);
  expect([isShown('content'), isShown('placeholder')]).toEqual([false, true]);
  await h.service.login(ADA);
  await h.service.logout();
  expect([isShown('content'), isShown('placeholder')]).toEqual([false, true]);
});

test('while a stored login waits for GET /me, both show- and hide-elements are hidden', async () => {
  document.body.innerHTML = `
    <div id="s" data-svc-show="auth">members</div>
    <div id="h" data-svc-hide="auth">visitors</div>
    <div id="sp" data-svc-show="paid">paid</div>
    <div id="hp" data-svc-hide="paid">not paid</div>`;
  const h = await harness();
  const { token } = await h.signIn(ADA); // a token with no cached member: set on another subdomain, say
  localStorage.setItem('svc:demo:token', token);
  h.start();
  expect(h.service.ready).toBe(false);
  expect(['s', 'h', 'sp', 'hp'].map(isShown)).toEqual([false, false, false, false]);
  expect(['s', 'h', 'sp', 'hp'].map((id) => $(id).hasAttribute(HIDDEN))).toEqual([true, true, true, true]);
  await waitFor(() => expect(h.service.ready).toBe(true));
  expect(['s', 'h', 'sp', 'hp'].map(isShown)).toEqual([true, false, true, false]);
});

test('a stored login the service no longer knows shows the logged-out content once answered', async () => {
  document.body.innerHTML = `
    <div id="s" data-svc-show="auth">members</div>
    <div id="h" data-svc-hide="auth">visitors</div>`;
  const h = await harness();
  const { token } = await h.signIn(ADA);
  await h.revoke(token);
  localStorage.setItem('svc:demo:token', token);
  h.start();
  expect([isShown('s'), isShown('h')]).toEqual([false, false]);
  await waitFor(() => expect(h.service.ready).toBe(true));
  expect([isShown('s'), isShown('h')]).toEqual([false, true]);
});

test('a cached member is drawn at start, before anything is awaited', async () => {
  document.body.innerHTML = `
    <div id="s" data-svc-show="paid">members</div>
    <div id="h" data-svc-hide="paid">visitors</div>`;
  const h = await ready();
  await h.service.login(ADA);
  document.body.innerHTML = `
    <div id="s" data-svc-show="paid">members</div>
    <div id="h" data-svc-hide="paid">visitors</div>`;
  h.start(); // a reload: the member comes from the cache
  expect([isShown('s'), isShown('h')]).toEqual([true, false]);
});

test('a shown element gets the page’s own display back: inline, stylesheet and !important', async () => {
  document.head.innerHTML = `<style>.grid { display: grid } .inline { display: inline-block !important }</style>`;
  document.body.innerHTML = `
    <div id="flex" data-svc-show="auth" style="display:flex">a</div>
    <div id="grid" class="grid" data-svc-show="auth">b</div>
    <span id="span" data-svc-show="auth">c</span>
    <div id="important" class="inline" data-svc-show="auth">d</div>
    <div id="hflex" data-svc-hide="auth" style="display: flex">e</div>`;
  const h = await ready();
  // Hidden whatever the page's styles say.
  expect(['flex', 'grid', 'span', 'important'].map(display)).toEqual(['none', 'none', 'none', 'none']);
  expect(display('hflex')).toBe('flex');
  await h.service.login(ADA);
  expect(['flex', 'grid', 'important'].map(display)).toEqual(['flex', 'grid', 'inline-block']);
  expect(isShown('span')).toBe(true); // happy-dom computes no default display for a span
  expect(display('hflex')).toBe('none');
  // The page's own inline style is left as it was.
  expect($('flex').getAttribute('style')).toBe('display:flex');
  await h.service.logout();
  expect(display('hflex')).toBe('flex');
  expect($('hflex').style.display).toBe('flex');
});

test('an anti-flicker inline display:none is lifted the first time the element is shown, and only then', async () => {
  document.body.innerHTML = `
    <div id="s" data-svc-show="auth" style="display:none; color: red">members</div>
    <div id="h" data-svc-hide="auth" style="display:none">visitors</div>
    <div id="later" data-svc-show="paid" style="display:none">paid</div>`;
  const h = await ready();
  // Logged out: the hide-element is shown for the first time, so its inline none goes.
  expect(display('h')).toBe('block');
  expect($('h').style.display).toBe('');
  // Still hidden ones keep theirs.
  expect($('s').style.display).toBe('none');
  expect($('later').style.display).toBe('none');

  await h.service.login(GRACE);
  expect(display('s')).toBe('block');
  expect($('s').style.display).toBe('');
  expect($('s').style.color).toBe('red');
  expect($('later').style.display).toBe('none');

  // The page hides them itself afterwards: the widget does not lift that again.
  await h.service.logout();
  $('s').style.display = 'none';
  $('h').style.display = 'none';
  await h.service.login(GRACE);
  expect(display('s')).toBe('none');
  expect($('s').style.display).toBe('none');
  await h.service.logout();
  expect(display('h')).toBe('none');
});

test('the page is redrawn before member.info and member.logout listeners run', async () => {
  document.body.innerHTML = `
    <div id="s" data-svc-show="paid">paid</div>
    <div id="h" data-svc-hide="paid">not paid</div>`;
  const h = await ready();
  const seen: string[] = [];
  const look = (event: Event) => seen.push(`${event.type}: show=${isShown('s')} hide=${isShown('h')}`);
  document.addEventListener('Service.member.info', look);
  document.addEventListener('Service.member.logout', look);
  try {
    await h.service.login(ADA);
    await h.service.login(GRACE);
    await h.service.login(ADA);
    await h.service.logout();
  } finally {
    document.removeEventListener('Service.member.info', look);
    document.removeEventListener('Service.member.logout', look);
  }
  expect(seen).toEqual([
    'Service.member.info: show=true hide=false',
    'Service.member.info: show=false hide=true',
    'Service.member.info: show=true hide=false',
    'Service.member.logout: show=false hide=true',
  ]);
});

test('fresh data from GET /me that differs from the cache redraws the page before member.info', async () => {
  document.body.innerHTML = `<div id="s" data-svc-show="free">free</div>`;
  const h = await ready();
  await h.service.login(GRACE);
  expect(isShown('s')).toBe(false);
  await joinCommunity(h.mock, 'grace'); // changed while the page was closed
  const seen: boolean[] = [];
  const look = () => seen.push(isShown('s'));
  const events = recordEvents();
  document.addEventListener('Service.member.info', look);
  try {
    h.start();
    await waitFor(() => expect(events.of('Service.member.info')).toHaveLength(2));
  } finally {
    document.removeEventListener('Service.member.info', look);
  }
  expect(seen).toEqual([false, true]);
  expect(isShown('s')).toBe(true);
});
