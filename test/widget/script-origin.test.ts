// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/blog/post"}
/** The API origin is the origin of widgets.js's own URL. */
import { afterEach, expect, test, vi } from 'vitest';
import { scriptOrigin } from '../../src/widget/script-origin';

afterEach(() => {
  document.head.innerHTML = '';
  vi.restoreAllMocks();
});

function addScript(src: string): HTMLScriptElement {
  const script = document.createElement('script');
  script.setAttribute('src', src);
  script.type = 'text/plain'; // not run by happy-dom
  document.head.append(script);
  return script;
}

test('the current script’s origin, when there is a current script', () => {
  const script = addScript('https://cdn.example.net/scripts/widgets.js?v=2');
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script);
  expect(scriptOrigin(document)).toBe('https://cdn.example.net');
});

test('otherwise the last install script on the page', () => {
  addScript('https://old.example.net/scripts/widgets.js');
  addScript('https://www.demo.localhost/assets/app.js');
  addScript('https://svc.example.net:8443/scripts/widgets.js');
  expect(scriptOrigin(document)).toBe('https://svc.example.net:8443');
});

test('a relative install URL resolves against the page', () => {
  addScript('/scripts/widgets.js');
  expect(scriptOrigin(document)).toBe('https://www.demo.localhost');
});

test('no install script: null', () => {
  addScript('https://www.demo.localhost/assets/app.js');
  expect(scriptOrigin(document)).toBeNull();
});
