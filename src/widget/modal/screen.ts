import type { MemberInfo, SiteConfig } from '../../contract/member';
import type { Dialog } from './dialog';
import type { ModalHost } from './host';
import type { Messages, WordLoaders } from './messages';
import { el } from './ui';

/** What every screen gets: where to draw, the words, the site, and a way to the next screen. */
export interface ScreenContext {
  doc: Document;
  host: ModalHost;
  dialog: Dialog;
  t: Messages;
  config: SiteConfig;
  /**
   * Draws another screen in the same dialog; `from`, the screen to go back to (the header's back
   * button), for a screen opened from a list of screens (menus, plans, a membership's card link).
   * Without `from`, the way back is forgotten (after logging in, after saving).
   */
  show(screen: Screen, from?: Screen): void;
  /** The screens the back button returns to, the last first; each Back goes one further. */
  trail: Screen[];
  /** Said once, at the top of the next screen drawn ("Saved."). */
  notice?: string | undefined;
  /**
   * Downloads the words a group of screens brings (the bundle's: its words start with the base's
   * only); absent where the catalogue is whole already (tests). ../screen-chunks.ts merges them
   * into `t` before a screen of the group draws.
   */
  words?: WordLoaders | undefined;
  /** The screens, for links from one to another (passed in: screens that lead to each other, such as log-in and registration, import neither). */
  screens: Screens;
  close(): void;
  /** Leaves for another page (a plan's welcome or content URL). */
  go(url: string): void;
  /** Has the browser fetch a file, the dialog staying open (protected content's `download`). */
  download(url: string): void;
}

/** Draws itself into `ctx.dialog._body` and sets the title; a failure to load is shown in words. */
export type Screen = (ctx: ScreenContext) => void | Promise<void>;

/** `next`: where to go once logged in or registered ("log in first", then the screen asked for). */
export interface Screens {
  login(next?: Screen): Screen;
  register(next?: Screen): Screen;
  account: Screen;
  plans: Screen;
  planSignup(publicId: string): Screen;
  memberships: Screen;
  invoices: Screen;
  accountEdit: Screen;
  emailChange: Screen;
  passwordChange: Screen;
  paymentMethod: Screen;
}

/** A screen for the logged-in member only: logged out, it is "log in first", then this screen. */
export const forMember = (screen: (ctx: ScreenContext, member: MemberInfo) => void | Promise<void>): Screen => {
  const guarded: Screen = (ctx) => {
    const member = ctx.host.member();
    if (member) return screen(ctx, member);
    // Logged in, the screen comes back with the way back it had (a sub-screen's, to the account).
    const trail = ctx.trail;
    ctx.show(
      ctx.screens.login((c) => {
        c.trail = trail;
        return guarded(c);
      }),
    );
  };
  return guarded;
};

/** Logged in or registered: the screen the visitor came for (`next`), or the dialog closes. */
export const proceed = (ctx: ScreenContext, next?: Screen): void => (next ? ctx.show(next) : ctx.close());

/**
 * Replaces the body with `nodes` under a new title, with the back button and the notice the
 * screen came with, and moves focus to its first control.
 */
export function render(ctx: ScreenContext, title: string, ...nodes: (Node | null)[]): void {
  const { dialog, trail, notice, doc } = ctx;
  const from = trail[trail.length - 1];
  dialog._setTitle(title);
  dialog._setBack(
    from &&
      (() => {
        ctx.show(from);
        ctx.trail = trail.slice(0, -1); // the screen shown keeps its own way back
      }),
  );
  ctx.notice = undefined;
  dialog._body.removeAttribute('aria-busy');
  dialog._body.replaceChildren(...[notice ? el(doc, 'p', { class: 'notice', role: 'status' }, notice) : null, ...nodes].filter((node): node is Node => !!node));
  dialog._focusFirst();
}

/** The words for a failure: the catalogue's for known codes, the service's own otherwise. */
export function errorText(t: Messages, error: unknown): { path: string; message: string } {
  const { code, path, message } = error as { code?: string; path?: string; message?: string };
  // A form with no e-mail field (changing the password or the e-mail) checks the current password alone.
  const key = code === 'invalidCredentials' && path === 'password' ? 'currentPassword' : code;
  const known = key ? t.errors[key as keyof Messages['errors']] : undefined;
  // A declined card is said next to its number (a form without one, Stripe's, says it above the button).
  return { path: code === 'invalidField' ? (path ?? 'base') : code === 'paymentDeclined' ? 'cardNumber' : 'base', message: known ?? message ?? String(error) };
}
