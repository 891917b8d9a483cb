import type { ContentAccessPlans, ContentItem, ContentViewingPreference } from '../../../contract/member';
import { richText } from '../rich-text';
import { forMember, render, type Screen, type ScreenContext } from '../screen';
import { el } from '../ui';
import { webAddress } from '../web-address';
import { planChoice } from './menu-links';

/**
 * Protected content (spec 4.1, `/content/:contentId/:viewingPreference?`): the service checks the
 * member's plans and records the viewing. `popup` shows it here (an article's text, a player, a
 * link to open); `download` has the browser fetch it, and a link leaves for its page. Without
 * access, the plans that open it are offered.
 */
export function contentScreen(contentId: string, preference?: ContentViewingPreference): Screen {
  return forMember(async (ctx) => {
    const { doc, t, host } = ctx;
    let item: ContentItem;
    try {
      item = await host.call<ContentItem>('GET', `/content/${contentId}${preference ? `?view=${preference}` : ''}`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'noAccess') return offerPlans(ctx, contentId);
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
  });
}

/** No plan of the member's opens the content: the public plans that do, each to its sign-up. */
async function offerPlans(ctx: ScreenContext, contentId: string): Promise<void> {
  const { doc, t } = ctx;
  const { plans } = await ctx.host.call<ContentAccessPlans>('GET', `/content/${contentId}/plans`);
  const choices = plans.map((plan) => el(doc, 'li', {}, planChoice(ctx, plan)));
  render(
    ctx,
    t.plans,
    el(doc, 'p', { role: 'alert' }, plans.length ? t.contentFor : t.contentClosed),
    plans.length ? el(doc, 'ul', { class: 'actions' }, ...choices) : null,
  );
}
