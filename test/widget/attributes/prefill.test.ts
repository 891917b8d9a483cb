// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/"}
/** data-svc-member-info on form controls (spec 4.1, "Prefilling forms"), and the site's Yes and No it may need. */
import { waitFor } from '@testing-library/dom';
import { beforeEach, expect, test } from 'vitest';
import { ADA, GRACE, harness, settle } from '../support';
import { $, addMember, field, ready, silenceWarnings } from './support';

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);
const selected = (id: string) => [...select(id).selectedOptions].map((o) => o.value);

/** Every input and change event that reaches the document, as `type#id`. */
function recordInputEvents(): string[] {
  const seen: string[] = [];
  const listener = (event: Event) => seen.push(`${event.type}#${(event.target as Element).id}`);
  document.addEventListener('input', listener);
  document.addEventListener('change', listener);
  return seen;
}

test('text, email, hidden and textarea controls are filled after a login', async () => {
  document.body.innerHTML = `
    <form>
      <input id="first" data-svc-member-info="firstName">
      <input id="email" type="email" data-svc-member-info="email">
      <input id="id" type="hidden" data-svc-member-info="id">
      <textarea id="name" data-svc-member-info="name"></textarea>
    </form>`;
  const h = await ready();
  expect(['first', 'email', 'id'].map((id) => input(id).value)).toEqual(['', '', '']);
  const member = await h.service.login(ADA);
  expect(input('first').value).toBe('Ada');
  expect(input('email').value).toBe(ADA.email);
  expect(input('id').value).toBe(String(member.id));
  expect($<HTMLTextAreaElement>('name').value).toBe('Ada Lovelace');
});

test('a member already logged in when the page is drawn fills the form at start', async () => {
  const h = await ready();
  await h.service.login(ADA);
  document.body.innerHTML = `<input id="email" type="email" data-svc-member-info="email"><textarea id="name" data-svc-member-info="name"></textarea>`;
  h.start(); // a reload: the member comes from the cache
  expect(input('email').value).toBe(ADA.email);
  expect($<HTMLTextAreaElement>('name').value).toBe('Ada Lovelace');
});

test('filled once: a later logout or another member’s login leaves the values and the visitor’s edits', async () => {
  document.body.innerHTML = `
    <input id="first" data-svc-member-info="firstName">
    <input id="email" type="email" data-svc-member-info="email">
    <span id="text" data-svc-member-info="firstName"></span>`;
  const h = await ready();
  await h.service.login(ADA);
  expect(input('first').value).toBe('Ada');
  input('email').value = 'edited@example.com'; // the visitor types
  await h.service.logout();
  expect([input('first').value, input('email').value]).toEqual(['Ada', 'edited@example.com']);
  await h.service.login(GRACE);
  expect([input('first').value, input('email').value]).toEqual(['Ada', 'edited@example.com']);
  expect($('text').textContent).toBe('Grace'); // text elements do follow the member
});

test('filled once from the cache: fresh GET /me data does not overwrite the form', async () => {
  const h = await ready();
  await h.service.login(ADA);
  const entry = JSON.parse(localStorage.getItem('svc:demo:member')!) as { m: { firstName: string } };
  entry.m.firstName = 'Augusta';
  localStorage.setItem('svc:demo:member', JSON.stringify(entry));
  document.body.innerHTML = `<input id="first" data-svc-member-info="firstName"><span id="text" data-svc-member-info="firstName"></span>`;
  const handle = h.start();
  expect(input('first').value).toBe('Augusta');
  await handle.refresh();
  await waitFor(() => expect($('text').textContent).toBe('Ada'));
  expect(input('first').value).toBe('Augusta');
});

test('multiple-select values are joined with ", " in a text input, and select each listed option of a select multiple', async () => {
  const h = await harness();
  document.body.innerHTML = `
    <input id="text" data-svc-member-info="${field(h, 'topics')}">
    <select id="multi" multiple data-svc-member-info="${field(h, 'topics')}">
      <option value="widgets">Widgets</option>
      <option value="apis">APIs</option>
      <option value="billing">Billing</option>
      <option value="Widgets">Upper-case widgets</option>
    </select>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  expect(input('text').value).toBe('widgets, apis');
  expect(selected('multi')).toEqual(['widgets', 'apis']);
});

test('a single select takes the select field’s value, matching the option value exactly', async () => {
  const h = await harness();
  document.body.innerHTML = `
    <select id="role" data-svc-member-info="${field(h, 'role')}">
      <option value="">Choose</option>
      <option value="Developer">Developer (capital)</option>
      <option value="developer">Developer</option>
      <option value="designer">Designer</option>
    </select>
    <select id="caps" data-svc-member-info="${field(h, 'role')}">
      <option value="">Choose</option>
      <option value="Developer">Developer</option>
      <option value="developer ">Developer and a space</option>
    </select>
    <input id="text" data-svc-member-info="${field(h, 'role')}">`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const seen = recordInputEvents();
  await h.service.login(ADA);
  expect(select('role').value).toBe('developer');
  expect(select('caps').value).toBe(''); // no exact match: left as it was, no events
  expect(input('text').value).toBe('developer');
  expect(seen.filter((e) => e.endsWith('#caps'))).toEqual([]);
});

test('an empty value fills nothing: a select keeps its own choice, a text input its default', async () => {
  const h = await harness();
  // Grace never answered the company or topics fields: their values are "" and [].
  document.body.innerHTML = `
    <select id="company" data-svc-member-info="${field(h, 'company')}">
      <option value="x">Pick one</option>
      <option value="" selected>None</option>
      <option value="acme">Acme</option>
    </select>
    <select id="blank" data-svc-member-info="${field(h, 'company')}"><option value="">-</option><option value="y" selected>Y</option></select>
    <select id="topics" multiple data-svc-member-info="${field(h, 'topics')}"><option value="widgets" selected>W</option></select>
    <input id="text" value="default" data-svc-member-info="${field(h, 'company')}">`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const seen = recordInputEvents();
  await h.service.login(GRACE);
  expect(select('company').value).toBe('');
  expect(select('blank').value).toBe('y');
  expect(selected('topics')).toEqual(['widgets']);
  expect(input('text').value).toBe('default');
  expect(seen).toEqual([]);
});

test('radio buttons: only the one whose value matches exactly, case-sensitive, is checked', async () => {
  const h = await harness();
  const role = field(h, 'role');
  document.body.innerHTML = `
    <form id="a">
      <input type="radio" name="role" id="dev" value="developer" data-svc-member-info="${role}">
      <input type="radio" name="role" id="des" value="designer" data-svc-member-info="${role}" checked>
    </form>
    <form id="b">
      <input type="radio" name="role2" id="Dev" value="Developer" data-svc-member-info="${role}">
      <input type="radio" name="role2" id="oth" value="other" data-svc-member-info="${role}">
    </form>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  expect([input('dev').checked, input('des').checked]).toEqual([true, false]);
  expect([input('Dev').checked, input('oth').checked]).toEqual([false, false]);
});

test('a checkbox field checks or unchecks a checkbox input', async () => {
  const h = await ready();
  document.body.innerHTML = `
    <input type="checkbox" id="yes" data-svc-member-info="${field(h, 'terms')}">
    <input type="checkbox" id="no" data-svc-member-info="${field(h, 'terms')}" checked>`;
  await Promise.resolve();
  await h.service.login(GRACE); // terms: true
  expect(input('yes').checked).toBe(true);
  expect(input('no').checked).toBe(true);

  await h.service.logout(); // new controls, filled by the next member
  document.body.innerHTML = `<input type="checkbox" id="no" data-svc-member-info="${field(h, 'terms')}" checked>`;
  await Promise.resolve();
  expect(input('no').checked).toBe(true);
  const member = await addMember(h, { signupValues: { terms: false } });
  await h.service.login(member);
  expect(input('no').checked).toBe(false);
});

test('a checkbox input is left alone unless its field is a checkbox field', async () => {
  const h = await harness();
  document.body.innerHTML = `
    <input type="checkbox" id="email" data-svc-member-info="email" checked>
    <input type="checkbox" id="company" data-svc-member-info="${field(h, 'company')}">
    <input type="checkbox" id="topics" data-svc-member-info="${field(h, 'topics')}">
    <input type="checkbox" id="id" data-svc-member-info="id">`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const seen = recordInputEvents();
  await h.service.login(ADA);
  expect(['email', 'company', 'topics', 'id'].map((id) => input(id).checked)).toEqual([true, false, false, false]);
  expect(['email', 'company', 'topics', 'id'].map((id) => input(id).value)).toEqual(['on', 'on', 'on', 'on']);
  expect(seen).toEqual([]);
});

test('a checkbox field in a text input reads Yes or No (demo site: en)', async () => {
  const h = await harness();
  document.body.innerHTML = `<input id="terms" data-svc-member-info="${field(h, 'terms')}"><textarea id="area" data-svc-member-info="${field(h, 'terms')}"></textarea>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(GRACE);
  await waitFor(() => expect(input('terms').value).toBe('Yes'));
  expect($<HTMLTextAreaElement>('area').value).toBe('Yes');

  await h.service.logout(); // a new control, filled by the next member
  document.body.innerHTML = `<input id="terms" data-svc-member-info="${field(h, 'terms')}">`;
  await Promise.resolve();
  expect(input('terms').value).toBe('');
  const member = await addMember(h, { signupValues: { terms: false } });
  await h.service.login(member);
  expect(input('terms').value).toBe('No');
});

test('prefilled controls fire bubbling input and change events, in that order', async () => {
  const h = await harness();
  document.body.innerHTML = `
    <form id="form">
      <input id="email" type="email" data-svc-member-info="email">
      <select id="role" data-svc-member-info="${field(h, 'role')}"><option value="">-</option><option value="developer">Dev</option></select>
      <input type="checkbox" id="terms" data-svc-member-info="${field(h, 'terms')}">
      <input type="radio" name="r" id="radio" value="developer" data-svc-member-info="${field(h, 'role')}">
    </form>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const onForm: string[] = [];
  const form = $('form');
  const listener = (event: Event) => onForm.push(`${event.type}#${(event.target as Element).id}:${event.bubbles}`);
  form.addEventListener('input', listener);
  form.addEventListener('change', listener);
  await h.service.login(ADA);
  expect(onForm).toEqual([
    'input#email:true', 'change#email:true',
    'input#role:true', 'change#role:true',
    'input#terms:true', 'change#terms:true',
    'input#radio:true', 'change#radio:true',
  ]);
  // Filled once: another login sends nothing more.
  await h.service.login(GRACE);
  expect(onForm).toHaveLength(8);
});

test('the native value setter is used, bypassing a framework’s own value property on the element', async () => {
  const h = await harness();
  document.body.innerHTML = `<input id="email" type="email" data-svc-member-info="email"><input type="checkbox" id="terms" data-svc-member-info="${field(h, 'terms')}">`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  const email = input('email');
  const terms = input('terms');
  // What React does: its own value/checked on the instance, tracking what it last set.
  const tracked = { value: '', checked: false, setterCalls: 0 };
  const nativeValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
  const nativeChecked = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')!;
  Object.defineProperty(email, 'value', {
    configurable: true,
    get: () => tracked.value,
    set: (value: string) => {
      tracked.setterCalls++;
      tracked.value = value;
    },
  });
  Object.defineProperty(terms, 'checked', {
    configurable: true,
    get: () => tracked.checked,
    set: (value: boolean) => {
      tracked.setterCalls++;
      tracked.checked = value;
    },
  });
  let valueAtInput: string | undefined;
  email.addEventListener('input', () => (valueAtInput = nativeValue.get!.call(email) as string));
  await h.service.login(ADA);
  expect(nativeValue.get!.call(email)).toBe(ADA.email);
  expect(valueAtInput).toBe(ADA.email);
  expect(nativeChecked.get!.call(terms)).toBe(true);
  expect(tracked).toEqual({ value: '', checked: false, setterCalls: 0 });
});

test('a control with an unknown type warns once and is left alone', async () => {
  const warn = silenceWarnings();
  document.body.innerHTML = `<input id="bad" value="typed" data-svc-member-info="phone">`;
  const h = await ready();
  const seen = recordInputEvents();
  await h.service.login(ADA);
  await h.service.login(GRACE);
  expect(input('bad').value).toBe('typed');
  expect(seen).toEqual([]);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] .*phone/);
  expect(warn.mock.calls[0]).toContain(input('bad'));
});

// The site's Yes and No (GET /config checkboxLabels), for checkbox fields shown as text.

test('GET /config is asked once per page, and only when a checkbox field is shown as text', async () => {
  const h = await harness();
  document.body.innerHTML = `
    <input id="email" data-svc-member-info="email">
    <input type="checkbox" id="box" data-svc-member-info="${field(h, 'terms')}">
    <span id="role" data-svc-member-info="${field(h, 'role')}"></span>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  await settle();
  expect(h.requests('GET', '/config')).toBe(0);

  // Now three places want Yes or No, and another login follows.
  const terms = field(h, 'terms');
  document.body.insertAdjacentHTML('beforeend', `
    <input id="t1" data-svc-member-info="${terms}"><span id="t2" data-svc-member-info="${terms}"></span><textarea id="t3" data-svc-member-info="${terms}"></textarea>`);
  await waitFor(() => expect($('t2').textContent).toBe('Yes'));
  expect(input('t1').value).toBe('Yes');
  expect($<HTMLTextAreaElement>('t3').value).toBe('Yes');
  await h.service.login(GRACE);
  await settle();
  expect($('t2').textContent).toBe('Yes');
  expect(h.requests('GET', '/config')).toBe(1);
  expect(JSON.parse(localStorage.getItem('svc:demo:labels')!)).toEqual(['Yes', 'No', expect.any(Number)]);
});

test('fresh stored labels are used at once, without GET /config', async () => {
  localStorage.setItem('svc:demo:labels', JSON.stringify(['Ja', 'Nein', Date.now() - 3_600_000]));
  const h = await harness();
  document.body.innerHTML = `<input id="terms" data-svc-member-info="${field(h, 'terms')}"><span id="text" data-svc-member-info="${field(h, 'terms')}"></span>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  expect(input('terms').value).toBe('Ja');
  expect($('text').textContent).toBe('Ja');
  await settle();
  expect(h.requests('GET', '/config')).toBe(0);
});

test('stored labels older than a day are used, and fetched again once', async () => {
  localStorage.setItem('svc:demo:labels', JSON.stringify(['Ja', 'Nein', Date.now() - 2 * 86_400_000]));
  const h = await harness();
  document.body.innerHTML = `<span id="text" data-svc-member-info="${field(h, 'terms')}"></span>`;
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(ADA);
  // The stale value stands in while the service is asked; its answer (en) then redraws the text.
  await waitFor(() => expect($('text').textContent).toBe('Yes'));
  expect(h.requests('GET', '/config')).toBe(1);
  const [yes, no, savedAt] = JSON.parse(localStorage.getItem('svc:demo:labels')!) as [string, string, number];
  expect([yes, no]).toEqual(['Yes', 'No']);
  expect(Date.now() - savedAt).toBeLessThan(60_000);
});

test('when GET /config fails, English stands in and a warning says so', async () => {
  const warn = silenceWarnings();
  const h = await harness();
  document.body.innerHTML = `<input id="terms" data-svc-member-info="${field(h, 'terms')}"><span id="text" data-svc-member-info="${field(h, 'terms')}"></span>`;
  h.failNetwork('config');
  h.start();
  await waitFor(() => expect(h.service.ready).toBe(true));
  await h.service.login(GRACE);
  await waitFor(() => expect($('text').textContent).toBe('Yes'));
  expect(input('terms').value).toBe('Yes');
  expect(h.requests('GET', '/config')).toBe(1);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]![0])).toMatch(/^\[Service\] .*language/);
});

test('what the page does in a filled control’s change handler reaches the engine: an element it adds is drawn', async () => {
  document.body.innerHTML = `<input id="first" data-svc-member-info="firstName"><div id="more"></div>`;
  document.addEventListener('change', () => {
    if ($('more').childElementCount === 0) $('more').innerHTML = `<p id="late" data-svc-show="auth">hello</p><span id="name" data-svc-member-info="firstName">?</span>`;
  });
  const h = await ready();
  await h.service.login(ADA);
  expect(input('first').value).toBe('Ada');
  await waitFor(() => expect($('name').textContent).toBe('Ada'));
  expect($('late').hasAttribute('data-svc-hidden')).toBe(false);
  await h.service.logout();
  await waitFor(() => expect($('late').hasAttribute('data-svc-hidden')).toBe(true));
  expect($('name').textContent).toBe('?');
});
