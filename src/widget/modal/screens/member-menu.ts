import { render, type ScreenContext } from '../screen';
import { el } from '../ui';

/**
 * The member menu, for sites that enable one (`memberMenu` in GET /config): where a logged-in
 * member lands from "Log in" or "Register", with the screens a member comes back for.
 */
export function memberMenuScreen(ctx: ScreenContext): void {
  const { doc, t, host } = ctx;
  const member = host.member();
  if (!member) return ctx.show(ctx.screens.login(memberMenuScreen));
  const logout = el(doc, 'button', { type: 'button', class: 'link' }, t.logOut);
  logout.addEventListener('click', () => {
    logout.disabled = true;
    void host.logout().finally(() => ctx.close());
  });
  const links = (
    [
      [t.account, ctx.screens.account],
      [t.memberships, ctx.screens.memberships],
      [t.invoices, ctx.screens.invoices],
      [t.plans, ctx.screens.plans],
    ] as const
  ).map(([label, screen]) => {
    const link = el(doc, 'button', { type: 'button', class: 'link' }, label);
    link.addEventListener('click', () => ctx.show(screen));
    return el(doc, 'li', {}, link);
  });
  render(
    ctx,
    t.menu,
    el(doc, 'p', {}, t.signedInAs(member.name || member.email)),
    el(doc, 'nav', { 'aria-label': t.menu }, el(doc, 'ul', { class: 'menu' }, ...links, el(doc, 'li', {}, logout))),
  );
}
