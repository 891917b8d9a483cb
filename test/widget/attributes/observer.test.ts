// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/**
 * Pages that change after load (single-page apps): data-svc-* elements added, edited, moved
 * and removed are followed at a cost in proportion to the change; stop() hands the page back.
 */
import { waitFor } from '@testing-library/dom';
import { beforeEach, expect, test, vi } from 'vitest';
import { ADA, GRACE, harness } from '../support';
import { fingerprint } from '../../../src/widget/member-cache';
import { $, HIDDEN, isShown, microtask, ready } from './support';

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

test('show- and hide-elements added later are drawn for the member at once', async () => {
  const h = await ready();
  document.body.insertAdjacentHTML('beforeend', `<section id="box"><div id="s" data-svc-show="auth">in</div><div id="h" data-svc-hide="auth">out</div></section>`);
  await microtask();
  expect([isShown('s'), isShown('h')]).toEqual([false, true]);
  await h.service.login(ADA);
  const nested = document.createElement('div');
  nested.innerHTML = `<p><b id="s2" data-svc-show="plan(monthly)">monthly</b><i id="h2" data-svc-hide="paid">free</i></p>`;
  $('box').append(nested);
  await microtask();
  expect([isShown('s'), isShown('h'), isShown('s2'), isShown('h2')]).toEqual([true, false, true, false]);
});

test('editing a criterion, adding or removing the attribute redraws the element', async () => {
  document.body.innerHTML = `<div id="x" data-svc-show="paid">x</div><div id="y">y</div>`;
  const h = await ready();
  await h.service.login(ADA);
  expect(isShown('x')).toBe(true);
  $('x').setAttribute('data-svc-show', 'plan(lifetime)');
  await microtask();
  expect(isShown('x')).toBe(false);
  $('x').setAttribute('data-svc-show', 'plan(lifetime, monthly)');
  await microtask();
  expect(isShown('x')).toBe(true);

  $('y').setAttribute('data-svc-hide', 'auth'); // added
  await microtask();
  expect(isShown('y')).toBe(false);
  $('y').removeAttribute('data-svc-hide'); // removed: no longer conditional
  await microtask();
  expect(isShown('y')).toBe(true);
  expect($('y').hasAttribute(HIDDEN)).toBe(false);

  $('x').setAttribute('data-svc-hide', 'free'); // a hide added to a show: both must allow
  await microtask();
  expect(isShown('x')).toBe(false);
  $('x').removeAttribute('data-svc-show');
  await microtask();
  expect(isShown('x')).toBe(false);
  $('x').removeAttribute('data-svc-hide');
  await microtask();
  expect(isShown('x')).toBe(true);
});

test('a removed element is no longer followed; moved within the page, it still is', async () => {
  document.body.innerHTML = `
    <div id="a"><span id="s" data-svc-show="auth">in</span><span id="name" data-svc-member-info="firstName">Guest</span></div>
    <div id="b"></div>`;
  const h = await ready();
  await h.service.login(ADA);
  const s = $('s');
  const name = $('name');
  $('b').append(s, name); // moved
  await microtask();
  expect(isShown(s)).toBe(true);
  expect(name.textContent).toBe('Ada');
  await h.service.login(GRACE);
  expect(name.textContent).toBe('Grace');

  s.remove();
  name.remove();
  await microtask();
  await h.service.logout();
  await h.service.login(ADA);
  // Out of the page: not redrawn for the later member.
  expect(name.textContent).not.toBe('Ada');
  expect(s.hasAttribute(HIDDEN)).toBe(false);
  document.body.append(s, name); // back in: followed again
  await microtask();
  expect(name.textContent).toBe('Ada');
  expect(isShown(s)).toBe(true);
});

test('member-info elements added later get the value; a changed type changes the text; a removed attribute restores the content', async () => {
  const h = await ready();
  await h.service.login(ADA);
  document.body.innerHTML = `<p id="p" data-svc-member-info="firstName">friend</p><input id="i" data-svc-member-info="email">`;
  await microtask();
  expect($('p').textContent).toBe('Ada');
  expect($<HTMLInputElement>('i').value).toBe(ADA.email);
  $('p').setAttribute('data-svc-member-info', 'email');
  await microtask();
  expect($('p').textContent).toBe(ADA.email);
  $('p').removeAttribute('data-svc-member-info');
  await microtask();
  expect($('p').textContent).toBe('friend');
  $('p').setAttribute('data-svc-member-info', 'lastName');
  await microtask();
  expect($('p').textContent).toBe('Lovelace');
});

test('a control added while logged out is filled at the next login, once', async () => {
  const h = await ready();
  const form = document.createElement('form');
  form.innerHTML = `<input id="i" data-svc-member-info="firstName">`;
  document.body.append(form);
  await microtask();
  expect($<HTMLInputElement>('i').value).toBe('');
  await h.service.login(GRACE);
  expect($<HTMLInputElement>('i').value).toBe('Grace');
  $('i').setAttribute('data-svc-member-info', 'email'); // filled once: not again
  await microtask();
  await h.service.login(ADA);
  expect($<HTMLInputElement>('i').value).toBe('Grace');
});

test('appending a subtree searches only the appended nodes, never the whole document', async () => {
  const tagged = Array.from({ length: 300 }, (_, i) => {
    const attribute = ['data-svc-show="auth"', 'data-svc-hide="paid"', 'data-svc-member-info="firstName"'][i % 3];
    return `<div class="row"><span ${attribute}>${i}</span></div>`;
  }).join('');
  document.body.innerHTML = `<main id="main">${tagged}</main>`;
  const h = await ready();
  await h.service.login(ADA);

  const subtree = document.createElement('section');
  subtree.innerHTML = `<div data-svc-show="paid">p</div><p><span data-svc-member-info="email"></span><input data-svc-member-info="email"></p>`;
  const elementQsa = vi.spyOn(Element.prototype, 'querySelectorAll');
  const documentQsa = vi.spyOn(Document.prototype, 'querySelectorAll');
  const fragmentQsa = vi.spyOn(DocumentFragment.prototype, 'querySelectorAll');
  const matches = vi.spyOn(Element.prototype, 'matches');
  $('main').append(subtree);
  await microtask();
  // Taken before the spies go: restoring a spy forgets its calls.
  const searched = [...elementQsa.mock.contexts] as Node[];
  const matched = [...matches.mock.contexts] as Node[];
  const otherCalls = documentQsa.mock.calls.length + fragmentQsa.mock.calls.length;
  for (const spy of [elementQsa, documentQsa, fragmentQsa, matches]) spy.mockRestore();

  // The subtree was drawn...
  expect(isShown(subtree.firstElementChild!)).toBe(true);
  expect(subtree.querySelector('span')!.textContent).toBe(ADA.email);
  expect(subtree.querySelector('input')!.value).toBe(ADA.email);
  // ...searching only inside it.
  expect(searched.length).toBeGreaterThan(0);
  for (const context of searched) {
    expect(context === subtree || subtree.contains(context), 'querySelectorAll outside the appended subtree').toBe(true);
  }
  expect(searched).not.toContain(document.documentElement);
  expect(searched).not.toContain(document.body);
  expect(otherCalls, 'querySelectorAll on the document').toBe(0);
  const outside = matched.filter((context) => !subtree.contains(context));
  expect(outside, 'matches() called on elements outside the subtree').toEqual([]);
  // Proportional: a few calls per appended root, not per tagged element of the page.
  expect(searched.length).toBeLessThan(20);
});

test('removing a subtree or editing one attribute searches nothing else', async () => {
  document.body.innerHTML = `<main id="main">${'<b data-svc-show="auth">x</b>'.repeat(200)}</main><aside id="side"><i id="x" data-svc-hide="auth">y</i></aside>`;
  const h = await ready();
  await h.service.login(ADA);
  const elementQsa = vi.spyOn(Element.prototype, 'querySelectorAll');
  const documentQsa = vi.spyOn(Document.prototype, 'querySelectorAll');
  $('x').setAttribute('data-svc-hide', 'paid');
  await microtask();
  expect(elementQsa).not.toHaveBeenCalled();
  const side = $('side');
  side.remove();
  await microtask();
  for (const context of elementQsa.mock.contexts) {
    expect(context === side || side.contains(context as Node)).toBe(true);
  }
  expect(documentQsa).not.toHaveBeenCalled();
});

test('stop() removes the hidden marks and the widget’s text, stops following the page, and is safe twice', async () => {
  document.body.innerHTML = `
    <div id="s" data-svc-show="plan(lifetime)">in</div>
    <div id="h" data-svc-hide="auth">out</div>
    <p id="name" data-svc-member-info="name">Hello <em>friend</em></p>
    <input id="i" data-svc-member-info="email">`;
  const h = await harness();
  const sheetsBefore = document.adoptedStyleSheets.length;
  const handle = h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  expect([isShown('s'), isShown('h')]).toEqual([false, false]);
  expect($('name').textContent).toBe('Ada Lovelace');

  handle.stop();
  expect(document.querySelectorAll(`[${HIDDEN}]`)).toHaveLength(0);
  expect([isShown('s'), isShown('h')]).toEqual([true, true]);
  expect($('name').innerHTML).toBe('Hello <em>friend</em>');
  expect(document.adoptedStyleSheets).toHaveLength(sheetsBefore);
  // The page is no longer followed.
  document.body.insertAdjacentHTML('beforeend', `<div id="later" data-svc-show="auth">later</div><span id="t" data-svc-member-info="firstName">t</span>`);
  $('h').setAttribute('data-svc-hide', 'free');
  await microtask();
  expect(document.querySelectorAll(`[${HIDDEN}]`)).toHaveLength(0);
  expect($('t').textContent).toBe('t');

  expect(() => handle.stop()).not.toThrow();
  expect(document.querySelectorAll(`[${HIDDEN}]`)).toHaveLength(0);
  expect($('name').innerHTML).toBe('Hello <em>friend</em>');
  expect(document.adoptedStyleSheets).toHaveLength(sheetsBefore);
});

test('after stop() a new start draws the page again', async () => {
  document.body.innerHTML = `<div id="s" data-svc-show="auth">in</div><span id="name" data-svc-member-info="firstName">Guest</span>`;
  const h = await ready();
  await h.service.login(ADA);
  h.start(); // stops the first widget, starts another: a reload
  expect(isShown('s')).toBe(true);
  expect($('name').textContent).toBe('Ada');
  expect(document.adoptedStyleSheets.length).toBeLessThanOrEqual(1);
  await h.service.logout();
  expect(isShown('s')).toBe(false);
  expect($('name').textContent).toBe('Guest');
});

test('an attribute removed in the same task as a member change: the element is let go, nothing throws', async () => {
  const h = await ready();
  const ada = await h.signIn(ADA);
  document.body.innerHTML = `
    <span id="name" data-svc-member-info="firstName">friend</span>
    <p id="members" data-svc-show="auth">members</p>`;
  await microtask();
  // All in one task: the page drops the attributes, then another tab's login arrives (the
  // storage event is handled synchronously), before the observers' callback could run.
  const errors: unknown[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.error);
  window.addEventListener('error', onError);
  $('name').removeAttribute('data-svc-member-info');
  $('members').removeAttribute('data-svc-show');
  localStorage.setItem('svc:demo:member', JSON.stringify({ f: fingerprint(ada.token), m: ada.memberInfo }));
  localStorage.setItem('svc:demo:token', ada.token);
  expect(() => window.dispatchEvent(new StorageEvent('storage', { key: 'svc:demo:token' }))).not.toThrow();
  window.removeEventListener('error', onError);
  expect(errors).toEqual([]);
  expect(h.service.getMemberInfo()).toMatchObject({ isLoggedIn: true });
  expect($('name').textContent).toBe('friend');
  expect($('members').hasAttribute(HIDDEN)).toBe(false);
});
