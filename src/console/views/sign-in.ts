/** Signing in: the owner pastes an Admin API key; the console checks it against the API before keeping it. */
import { h } from '../dom';
import { KEY_PREFIX } from '../session';

/** `check` resolves with nothing when the key works, or with the words saying why it does not. */
export function signInView(check: (key: string) => Promise<string | undefined>, message?: string): HTMLElement {
  const input = h('input', {
    id: 'admin-key',
    name: 'key',
    type: 'password',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'admin-key-hint',
  });
  const error = h('p', { class: 'error', role: 'alert', id: 'sign-in-error' }, message ?? '');
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form = h(
    'form',
    { class: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title', tabindex: -1 }, 'Owner console'),
    h('p', null, 'Reports and owner actions for your site, read from this service’s Admin API with your key.'),
    h('label', { for: 'admin-key' }, 'Admin API key'),
    input,
    h(
      'p',
      { class: 'hint', id: 'admin-key-hint' },
      `Starts with ${KEY_PREFIX}. It is kept in this tab only (sessionStorage) until you sign out or close the tab, and sent to this service’s Admin API only. Make one with `,
      h('code', null, 'npx svc keys create --site SITE --scopes …'),
      '.',
    ),
    button,
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!key.startsWith(KEY_PREFIX)) {
      error.textContent = `That is not an Admin API key: they start with ${KEY_PREFIX}.`;
      input.focus();
      return;
    }
    button.disabled = true;
    error.textContent = 'Checking the key…';
    const problem = await check(key);
    button.disabled = false;
    if (problem !== undefined) {
      error.textContent = problem;
      input.focus();
    }
  });
  return h('main', { id: 'main' }, form);
}
