// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** data-svc-member-info on elements that are not form controls (spec 4.1, "Embedding member info"). */
import { waitFor } from '@testing-library/dom';
import { beforeEach, expect, test } from 'vitest';
import { ADA, GRACE, harness, recordEvents } from '../support';
import { $, addMember, field, ready, silenceWarnings } from './support';

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

/** The element holds exactly one node, a text node with `text`. */
function expectText(id: string, text: string): void {
  const element = $(id);
  expect(element.childNodes).toHaveLength(1);
  expect(element.firstChild!.nodeType).toBe(Node.TEXT_NODE);
  expect(element.textContent).toBe(text);
}

test('while a member is logged in, the element holds one text node with the value', async () => {
  document.body.innerHTML = `
    <span id="id" data-svc-member-info="id"></span>
    <span id="first" data-svc-member-info="firstName">friend</span>
    <span id="last" data-svc-member-info="lastName"></span>
    <p id="name" data-svc-member-info="name">Hello <em>friend</em>!</p>
    <a id="email" data-svc-member-info="email"></a>`;
  const h = await ready();
  const member = await h.service.login(ADA);
  expectText('id', String(member.id));
  expectText('first', 'Ada');
  expectText('last', 'Lovelace');
  expectText('name', 'Ada Lovelace');
  expectText('email', ADA.email);
});

test('nobody logged in: the page’s own content stays; on logout it comes back, the same nodes', async () => {
  document.body.innerHTML = `
    <p id="name" data-svc-member-info="name">Hello <em id="em">friend</em>!</p>
    <span id="empty" data-svc-member-info="email"></span>`;
  const original = [...$('name').childNodes];
  const h = await ready();
  expect($('name').innerHTML).toBe('Hello <em id="em">friend</em>!');
  expect($('empty').childNodes).toHaveLength(0);
  await h.service.login(ADA);
  expectText('name', 'Ada Lovelace');
  expectText('empty', ADA.email);
  await h.service.logout();
  expect([...$('name').childNodes]).toEqual(original);
  expect($('name').childNodes[1]).toBe(original[1]);
  expect($('empty').childNodes).toHaveLength(0);
});

test('the text follows the member: another login replaces it, logout restores the placeholder', async () => {
  document.body.innerHTML = `<b id="first" data-svc-member-info="firstName">Guest</b>`;
  const h = await ready();
  await h.service.login(ADA);
  const node = $('first').firstChild;
  expectText('first', 'Ada');
  await h.service.login(GRACE);
  expectText('first', 'Grace');
  expect($('first').firstChild).toBe(node); // the same text node, updated in place
  await h.service.logout();
  expectText('first', 'Guest');
  await h.service.login(ADA);
  expectText('first', 'Ada');
});

test('fresh GET /me data differing from the cache updates the text', async () => {
  document.body.innerHTML = `<span id="name" data-svc-member-info="name">?</span><span id="first" data-svc-member-info="firstName"></span>`;
  const h = await ready();
  await h.service.login(ADA);
  // What an earlier page cached under this token, before the member changed their name.
  const entry = JSON.parse(localStorage.getItem('svc:demo:member')!) as { m: { firstName: string; name: string } };
  entry.m.firstName = 'Augusta';
  entry.m.name = 'Augusta Lovelace';
  localStorage.setItem('svc:demo:member', JSON.stringify(entry));
  const events = recordEvents();
  h.start(); // a reload
  expectText('name', 'Augusta Lovelace');
  expectText('first', 'Augusta');
  await waitFor(() => expect(events.of('Service.member.info')).toHaveLength(2));
  expectText('name', 'Ada Lovelace');
  expectText('first', 'Ada');
});

test('values are text: markup in a member’s name appears literally and creates no element', async () => {
  document.body.innerHTML = `<div id="first" data-svc-member-info="firstName"></div><div id="name" data-svc-member-info="name"></div>`;
  const h = await ready();
  const evil = '<img src=x onerror=alert(1)>';
  const member = await addMember(h, { firstName: evil, lastName: '<b>bold</b>' });
  await h.service.login(member);
  expectText('first', evil);
  expectText('name', `${evil} <b>bold</b>`);
  expect(document.querySelector('img, #name b')).toBeNull();
});

test('profileImageUrl is empty for the generated initials avatar, the URL when uploaded', async () => {
  document.body.innerHTML = `<span id="image" data-svc-member-info="profileImageUrl">no picture</span>`;
  const h = await ready();
  const ada = await h.service.login(ADA);
  expect(ada.profileImageUrl).toMatch(/^data:/); // the service's generated avatar
  expectText('image', 'no picture');
  const url = 'https://cdn.demo.localhost/avatars/42.png';
  const member = await addMember(h, { firstName: 'Pic', profileImageUrl: url });
  await h.service.login(member);
  expectText('image', url);
  await h.service.login(ADA);
  expectText('image', 'no picture');
});

test('an <img> takes profileImageUrl as its src, never as content; its own src comes back without a picture, or none if it had none', async () => {
  document.body.innerHTML = `
    <img id="avatar" data-svc-member-info="profileImageUrl" src="/placeholder.png" alt="">
    <img id="bare" data-svc-member-info="profileImageUrl" alt="">`;
  const h = await ready();
  await h.service.login(ADA);
  // Ada has no picture: the initials' data: URL is no picture of hers.
  expect($('avatar').getAttribute('src')).toBe('/placeholder.png');
  expect($('bare').hasAttribute('src')).toBe(false);
  const url = 'https://cdn.demo.localhost/avatars/42.png';
  await h.service.login(await addMember(h, { firstName: 'Pic', profileImageUrl: url }));
  for (const id of ['avatar', 'bare']) {
    expect($(id).getAttribute('src')).toBe(url);
    expect($(id).childNodes).toHaveLength(0);
  }
  await h.service.logout();
  expect($('avatar').getAttribute('src')).toBe('/placeholder.png');
  expect($('bare').hasAttribute('src')).toBe(false);
});

test('custom sign-up fields: text, select, multiple-select joined with ", ", checkbox as Yes', async () => {
  const h0 = await harness();
  document.body.innerHTML = `
    <span id="company" data-svc-member-info="${field(h0, 'company')}"></span>
    <span id="role" data-svc-member-info="${field(h0, 'role')}"></span>
    <span id="topics" data-svc-member-info="${field(h0, 'topics')}"></span>
    <span id="terms" data-svc-member-info="${field(h0, 'terms')}"></span>
    <span id="bio" data-svc-member-info="${field(h0, 'bio')}">no bio</span>`;
  h0.start();
  await waitFor(() => expect(h0.service.ready).toBe(true));
  await h0.service.login(ADA);
  expectText('company', 'Analytical Engines');
  expectText('role', 'developer');
  expectText('topics', 'widgets, apis');
  await waitFor(() => expectText('terms', 'Yes'));
  // Ada left the bio empty: nothing to show, the placeholder stays.
  expectText('bio', 'no bio');
});

test('a checkbox field that is false shows No', async () => {
  const h = await ready();
  document.body.innerHTML = `<span id="terms" data-svc-member-info="${field(h, 'terms')}">-</span>`;
  await Promise.resolve();
  const member = await addMember(h, { firstName: 'Nay', signupValues: { terms: false, role: 'designer' } });
  await h.service.login(member);
  await waitFor(() => expectText('terms', 'No'));
});

test('checkbox fields use the site’s language: stored labels Ja and Nein are used at once', async () => {
  localStorage.setItem('svc:demo:labels', JSON.stringify(['Ja', 'Nein', Date.now()]));
  const h0 = await harness();
  document.body.innerHTML = `<span id="terms" data-svc-member-info="${field(h0, 'terms')}"></span>`;
  h0.start();
  await waitFor(() => expect(h0.service.ready).toBe(true));
  await h0.service.login(GRACE);
  expectText('terms', 'Ja'); // at once: the labels are known
  const member = await addMember(h0, { signupValues: { terms: false } });
  await h0.service.login(member);
  expectText('terms', 'Nein');
  expect(h0.requests('GET', '/config')).toBe(0);
});

test('the site other (locale de, from GET /config) shows a checkbox field as Ja', async () => {
  const happyDOM = (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM;
  happyDOM.setURL('https://www.other.example/');
  try {
    const h = await harness();
    const other = h.mock.sites[1]!;
    const [consent] = await h.mock.store.createSignupFields([
      { siteId: other.site.id, type: 'checkbox', label: 'Newsletter', required: false, position: 1 },
    ]);
    other.fieldIds.consent = consent!;
    const member = await addMember(h, { firstName: 'Ottilie', signupValues: { consent: true } }, 1);
    document.body.innerHTML = `<span id="consent" data-svc-member-info="customSignupField${consent}"></span>`;
    h.start({ subdomain: 'other' });
    await waitFor(() => expect(h.service.ready).toBe(true));
    await h.service.login(member);
    await waitFor(() => expectText('consent', 'Ja'));
    expect(JSON.parse(localStorage.getItem('svc:other:labels')!).slice(0, 2)).toEqual(['Ja', 'Nein']);
  } finally {
    happyDOM.setURL('https://www.demo.localhost/');
  }
});

test('an unknown type warns once, naming the element, and shows nothing', async () => {
  const warn = silenceWarnings();
  document.body.innerHTML = `
    <span id="bad" data-svc-member-info="nickname">placeholder</span>
    <span id="nofield" data-svc-member-info="customSignupField999999"></span>`;
  const h = await ready();
  await h.service.login(ADA);
  expectText('bad', 'placeholder');
  expect($('nofield').childNodes).toHaveLength(0);
  await h.service.login(GRACE);
  await h.service.logout();
  await h.service.login(ADA);
  for (const id of ['bad', 'nofield']) {
    const calls = warn.mock.calls.filter((call) => call.includes($(id)));
    expect(calls, `one warning for #${id}`).toHaveLength(1);
    expect(String(calls[0]![0])).toMatch(/^\[Service\] /);
    expect(String(calls[0]![0])).toContain($(id).dataset.svcMemberInfo!);
  }
  expect(warn).toHaveBeenCalledTimes(2);
});

test('the text is in place before member.info and member.logout listeners run', async () => {
  document.body.innerHTML = `<span id="first" data-svc-member-info="firstName">Guest</span>`;
  const h = await ready();
  const seen: string[] = [];
  const look = (event: Event) => seen.push(`${event.type}: ${$('first').textContent}`);
  document.addEventListener('Service.member.info', look);
  document.addEventListener('Service.member.logout', look);
  try {
    await h.service.login(ADA);
    await h.service.login(GRACE);
    await h.service.logout();
  } finally {
    document.removeEventListener('Service.member.info', look);
    document.removeEventListener('Service.member.logout', look);
  }
  expect(seen).toEqual(['Service.member.info: Ada', 'Service.member.info: Grace', 'Service.member.logout: Guest']);
});

test('a cached member’s values are in the page at start, before anything is awaited', async () => {
  const h = await ready();
  await h.service.login(ADA);
  document.body.innerHTML = `<span id="first" data-svc-member-info="firstName">Guest</span>`;
  h.start(); // a reload
  expectText('first', 'Ada');
});

test('a conditional element inside a placeholder is drawn again each time the placeholder comes back', async () => {
  document.body.innerHTML = `<span id="who" data-svc-member-info="firstName"><em id="guest" data-svc-hide="auth">guest</em></span>`;
  const h = await ready();
  expect($('guest').hasAttribute('data-svc-hidden')).toBe(false);
  for (let round = 0; round < 2; round++) {
    await h.service.login(ADA);
    expect($('who').textContent).toBe('Ada');
    await h.service.logout();
    expect($('who').textContent).toBe('guest');
    expect($('guest').hasAttribute('data-svc-hidden')).toBe(false);
    expect(document.getElementById('guest')).toBe($('who').firstElementChild);
  }
});
