import { forMember, render, type Screen } from '../screen';
import { el } from '../ui';
import { logoutButton, screenLinks } from './menu-links';

/** The member's account: who is logged in, links to the other screens, and logging out. */
export const accountScreen: Screen = forMember((ctx, member) => {
  const { doc, t } = ctx;
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
});
