/**
 * The console as a whole: signed out, the sign-in form; signed in, the header (the site, the
 * views the key may read, "Sign out / forget key"), the rate-limit notice, and the view the URL's
 * fragment names. Changing view stops every read of the one before. `start()`/`stop()` are safe to
 * call twice.
 */
import type { Scope, Site } from '../contract/admin';
import { AdminApi, ApiFailure } from './api/admin-api';
import { Capabilities } from './api/capabilities';
import { PlanBook } from './api/plan-book';
import { type ConsoleContext, describeFailure } from './context';
import { h, replace } from './dom';
import { forgetKey, storedKey, storeKey } from './session';
import { href, parseRoute, type Route } from './router';
import { RateLimitNotice } from './ui/rate-limit-notice';
import { memberView } from './views/member';
import { membersView } from './views/members';
import { overviewView } from './views/overview';
import { plansView } from './views/plans';
import { signInView } from './views/sign-in';

export class ConsoleApp {
  private ctx: ConsoleContext | undefined;
  private view: AbortController | undefined;
  private main: HTMLElement | undefined;
  private nav: HTMLElement | undefined;
  private started = false;
  private readonly notice = new RateLimitNotice();
  private readonly onHashChange = () => this.showRoute(true);

  constructor(private readonly root: HTMLElement) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    window.addEventListener('hashchange', this.onHashChange);
    const key = storedKey();
    if (key) {
      replace(this.root, h('main', { id: 'main' }, h('h1', null, 'Owner console'), h('p', null, 'Signing in…')));
      void this.signIn(key, false).then((problem) => problem !== undefined && this.showSignIn(`The key kept in this tab no longer works. ${problem}`));
    } else this.showSignIn();
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    window.removeEventListener('hashchange', this.onHashChange);
    this.view?.abort();
  }

  private showSignIn(message?: string): void {
    this.view?.abort();
    this.ctx = undefined;
    replace(this.root, signInView((key) => this.signIn(key), message));
    this.root.querySelector<HTMLElement>('input')?.focus();
  }

  /** Checks the key (its site, then what it may read) and opens the console; resolves with the words of a failure. */
  private async signIn(key: string, fromForm = true): Promise<string | undefined> {
    const api = new AdminApi(key, { onRateLimit: (seconds) => this.notice.wait(seconds), onRateLimitOver: () => this.notice.over() });
    let site: Site | undefined;
    let capabilities: Capabilities;
    try {
      [site] = await api.get<Site[]>('/sites');
      capabilities = await Capabilities.ofKey(api);
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 401) return 'The service does not know this key: it may be mistyped, revoked or expired.';
      return describeFailure(error);
    }
    if (!site) return 'The service answered with no site for this key.';
    storeKey(key);
    this.ctx = {
      api,
      site,
      capabilities,
      plans: new PlanBook(api),
      members: new Map(),
      failed: (error, scope) => this.failed(error, scope),
    };
    // Signed in from the form, the focus goes to the overview's heading, as on any change of view.
    this.showShell(site, fromForm);
    return undefined;
  }

  private signOut(): void {
    forgetKey();
    this.showSignIn('Signed out: the key is forgotten in this tab.');
  }

  private failed(error: unknown, scope?: Scope): string {
    if (error instanceof ApiFailure && error.status === 401) {
      // Revoked or expired while signed in: nothing more will work with it.
      forgetKey();
      queueMicrotask(() => this.showSignIn(`Signed out: ${error.message}.`));
    }
    if (error instanceof ApiFailure && error.status === 404 && scope?.startsWith('read.')) {
      this.ctx?.capabilities.lacks(scope);
      this.renderNav();
    }
    return describeFailure(error, scope);
  }

  private showShell(site: Site, moveFocus: boolean): void {
    this.nav = h('nav', { 'aria-label': 'Console' });
    this.main = h('main', { id: 'main', tabindex: -1 });
    replace(
      this.root,
      h(
        'header',
        { class: 'top' },
        h('p', { class: 'brand' }, h('span', { class: 'product' }, 'Owner console'), ' ', h('span', { class: 'site' }, site.name), ' ', h('span', { class: 'subdomain' }, `(${site.subdomain})`)),
        this.nav,
        h('button', { type: 'button', class: 'sign-out', onclick: () => this.signOut() }, 'Sign out / forget key'),
      ),
      this.notice.element,
      this.main,
    );
    this.showRoute(moveFocus);
  }

  private renderNav(route: Route = parseRoute(location.hash)): void {
    if (!this.nav || !this.ctx) return;
    const can = (scope: Scope) => this.ctx!.capabilities.has(scope);
    const current = route.view === 'member' ? 'members' : route.view;
    const link = (view: 'overview' | 'members' | 'plans', text: string) =>
      h('a', { href: view === 'members' ? href({ view, query: new URLSearchParams() }) : view === 'overview' ? '#/' : '#/plans', 'aria-current': current === view ? 'page' : null }, text);
    replace(this.nav, h('ul', null, h('li', null, link('overview', 'Overview')), can('read.members') && h('li', null, link('members', 'Members')), can('read.plans') && h('li', null, link('plans', 'Plans'))));
  }

  private showRoute(moveFocus: boolean): void {
    const ctx = this.ctx;
    if (!ctx || !this.main) return;
    this.view?.abort();
    this.view = new AbortController();
    const signal = this.view.signal;
    const route = parseRoute(location.hash);
    this.renderNav(route);
    const view =
      route.view === 'members' && ctx.capabilities.has('read.members')
        ? membersView(ctx, route.query, signal)
        : route.view === 'member'
          ? memberView(ctx, route.id, signal)
          : route.view === 'plans' && ctx.capabilities.has('read.plans')
            ? plansView(ctx, signal)
            : overviewView(ctx, route.view === 'overview' ? route.weeks : 12, signal);
    replace(this.main, view);
    // A new view is announced by its heading, as a new page would be.
    if (moveFocus) view.querySelector<HTMLElement>('h1')?.focus();
  }
}
