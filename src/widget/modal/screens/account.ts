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
  render(
    ctx,
    t.account,
    el(doc, 'dl', {}, el(doc, 'dt', {}, t.name), el(doc, 'dd', {}, member.name || '—'), el(doc, 'dt', {}, t.email), el(doc, 'dd', {}, member.email)),
    logout,
  );
}
