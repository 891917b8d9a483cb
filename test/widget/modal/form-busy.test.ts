// @vitest-environment happy-dom
/** A form submits once at a time, and says it is busy while it does (issue 14). */
import { expect, test } from 'vitest';
import { messagesFor } from '../../../src/widget/modal/locales';
import type { ScreenContext } from '../../../src/widget/modal/screen';
import { actionForm } from '../../../src/widget/modal/screens/form';

test('while a submit runs the button is disabled, the form is aria-busy, and a second submit does nothing', async () => {
  let finish!: () => void;
  let calls = 0;
  const ctx = { doc: document, t: messagesFor('en') } as unknown as ScreenContext;
  const form = actionForm(ctx, 'Save', [], () => {
    calls++;
    return new Promise<void>((resolve) => (finish = resolve));
  });
  document.body.append(form);
  const button = form.querySelector('button')!;
  form.requestSubmit();
  expect(button.disabled).toBe(true);
  expect(form.getAttribute('aria-busy')).toBe('true');
  form.requestSubmit();
  expect(calls).toBe(1);
  finish();
  await new Promise((r) => setTimeout(r, 0));
  expect(button.disabled).toBe(false);
  expect(form.hasAttribute('aria-busy')).toBe(false);
});
