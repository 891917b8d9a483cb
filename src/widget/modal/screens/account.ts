import { render, type ScreenContext } from '../screen';
import { el } from '../ui';
import { logoutButton, screenLinks } from './menu-links';

/** The member's account: who is logged in, links to the other screens, and logging out. */
export function accountScreen(ctx: ScreenContext): void {
  const { doc, t, host } = ctx;
  const member = host.member();
  if (!member) return ctx.show(ctx.screens.login(accountScreen));
  const links = screenLinks(ctx, [
    [t.memberships, ctx.screens.memberships],
    [t.invoices, ctx.screens.invoices],
    [t.plans, ctx.screens.plans],
    [t.editAccount, ctx.screens.accountEdit],
    [t.changeEmail, ctx.screens.emailChange],
    [t.changePassword, ctx.screens.passwordChange],
    [t.paymentMethod, ctx.screens.paymentMethod],
  ]);
  render(
    ctx,
    t.account,
    el(doc, 'ul', { class: 'menu' }, ...links),
    el(doc, 'dl', {}, el(doc, 'dt', {}, t.name), el(doc, 'dd', {}, member.name || '—'), el(doc, 'dt', {}, t.email), el(doc, 'dd', {}, member.email)),
    logoutButton(ctx),
  );
}
