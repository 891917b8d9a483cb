import { render, type Screen, type ScreenContext } from '../screen';
import { el, input, labelled } from '../ui';
import { actionForm, valueOf } from './form';

/** Log in; then the screen the visitor came for (`next`), or nothing more: the dialog closes. */
export function loginScreen(next?: Screen): Screen {
  return (ctx: ScreenContext) => {
    const { doc, t } = ctx;
    const form = actionForm(
      ctx,
      t.logIn,
      [
        labelled(doc, t.email, input(doc, 'email', 'email', { autocomplete: 'email', required: '' })),
        labelled(doc, t.password, input(doc, 'password', 'password', { autocomplete: 'current-password', required: '' })),
      ],
      async (f) => {
        await ctx.host.login({ email: valueOf(f, 'email'), password: valueOf(f, 'password') });
        if (next) ctx.show(next);
        else ctx.close();
      },
    );
    const toRegister = el(doc, 'button', { type: 'button', class: 'link' }, t.register);
    toRegister.addEventListener('click', () => ctx.show(ctx.screens.register(next)));
    render(ctx, t.logIn, form, el(doc, 'p', {}, `${t.noAccount} `, toRegister));
  };
}
