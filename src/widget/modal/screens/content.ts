import type { ContentAccessPlans, ContentItem, ContentViewingPreference } from '../../../contract/member';
import { price } from '../format';
import { richText } from '../rich-text';
import { render, type Screen, type ScreenContext } from '../screen';
import { el } from '../ui';
import { webAddress } from '../web-address';
import { haveAccount, planChoice } from './menu-links';

/**
 * Protected content (spec 4.1, `/content/:contentId/:viewingPreference?`): the service checks the
 * member's plans and records the viewing. `popup` shows it here (an article's text, a player, a
 * link to open); `download` has the browser fetch it, and a link leaves for its page. Without
 * access, and to a visitor who is not logged in, its paywall: the plans that open it.
 */
export function contentScreen(contentId: string, preference?: ContentViewingPreference): Screen {
  const screen: Screen = async (ctx) => {
    const { doc, t, host } = ctx;
    if (!host.member()) return offerPlans(ctx, contentId, screen);
    let item: ContentItem;
    try {
      item = await host.call<ContentItem>('GET', `/content/${contentId}${preference ? `?view=${preference}` : ''}`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'noAccess') return offerPlans(ctx, contentId, screen);
      if (code === 'notFound') return render(ctx, t.problem, el(doc, 'p', { role: 'alert' }, t.noContent));
      throw error;
    }
    if (item.type === 'article') return render(ctx, item.name, el(doc, 'div', { class: 'rich' }, richText(doc, item.body ?? '')));
    // Played, linked or followed only at an address the check lets through; else the dialog says there is a problem.
    const url = webAddress(item.url);
    if (!url) throw new Error(`content ${contentId} has no address`);
    if (item.view === 'popup') {
      const shown =
        item.type === 'video' || item.type === 'audio'
          ? el(doc, item.type, { controls: '', src: url, preload: 'metadata' })
          : el(doc, 'a', { href: url, target: '_blank', rel: 'noopener noreferrer', class: 'button' }, t.open);
      return render(ctx, item.name, shown);
    }
    if (item.type === 'link') return ctx.go(url);
    const again = el(doc, 'a', { href: url, download: '', class: 'button' }, t.downloadAgain);
    render(ctx, item.name, el(doc, 'p', { role: 'status' }, t.downloading(item.name)), again);
    ctx.download(url);
  };
  return screen;
}

/**
 * The paywall: what is closed (the item by name), the public plans that open it with their
 * prices, each to its sign-up, and for a visitor "Already a member? Log in", which comes back to
 * the item (opened, when one of the member's plans includes it).
 */
async function offerPlans(ctx: ScreenContext, contentId: string, again: Screen): Promise<void> {
  const { doc, t, config } = ctx;
  const { name, plans } = await ctx.host.call<ContentAccessPlans>('GET', `/content/${contentId}/plans`);
  const choices = plans.map((plan) =>
    el(doc, 'li', {}, el(doc, 'h3', {}, plan.name), el(doc, 'p', { class: 'price' }, price(plan, t, config.locale)), planChoice(ctx, plan, again)),
  );
  render(
    ctx,
    name,
    el(doc, 'p', { role: 'alert' }, plans.length ? t.contentFor(name) : t.contentClosed(name)),
    plans.length ? el(doc, 'ul', { class: 'cards' }, ...choices) : null,
    ctx.host.member() ? null : haveAccount(ctx, again),
  );
}
