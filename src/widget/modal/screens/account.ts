import { render, type ScreenContext } from '../screen';
import { el } from '../ui';

/** The member's account: who is logged in, and logging out. */
export function accountScreen(ctx: ScreenContext): void {
  const { doc, t, host } = ctx;
  const member = host.member();
  if (!member) return ctx.show(ctx.screens.login(accountScreen));
  const logout = el(doc, 'button', { type: 'button' }, t.logOut);
  logout.addEventListener('click', () => {
    logout.disabled = true;
    void host.logout().finally(() => ctx.close());
  });
  const links = (
    [
      [t.memberships, ctx.screens.memberships],
      [t.invoices, ctx.screens.invoices],
      [t.plans, ctx.screens.plans],
      [t.editAccount, ctx.screens.accountEdit],
      [t.changeEmail, ctx.screens.emailChange],
      [t.changePassword, ctx.screens.passwordChange],
      [t.paymentMethod, ctx.screens.paymentMethod],
    ] as const
  ).map(([label, screen]) => {
    const link = el(doc, 'button', { type: 'button', class: 'link' }, label);
    link.addEventListener('click', () => ctx.show(screen));
    return el(doc, 'li', {}, link);
  });
  render(
    ctx,
    t.account,
    el(doc, 'ul', { class: 'menu' }, ...links),
    el(doc, 'dl', {}, el(doc, 'dt', {}, t.name), el(doc, 'dd', {}, member.name || '—'), el(doc, 'dt', {}, t.email), el(doc, 'dd', {}, member.email)),
    logout,
  );
}
