/**
 * A mail from a site to one of its members, ready for the outbox: the words from the templates
 * (in the site's language, with its name), the sender's name and reply-to from the site's mail
 * settings, and whether the site sends a notice at all.
 */
import { composeMail, type MailTemplate } from '../mail-templates';
import type { EpochMs, MailNotice, NewMail, SiteRecord } from '../store/records';

export function siteMail(site: SiteRecord, to: string, template: MailTemplate, createdAt: EpochMs, onceKey?: string): NewMail {
  const { subject, text, html } = composeMail({ name: site.name, locale: site.locale }, template);
  const replyTo = site.mail?.replyTo;
  return {
    siteId: site.id, kind: template.kind, to, subject, text, html, createdAt,
    fromName: site.mail?.fromName ?? site.name,
    ...(replyTo !== undefined && { replyTo }),
    ...(onceKey !== undefined && { onceKey }),
  };
}

/** Each notice is on unless the site's mail settings turn it off. */
export const sendsNotice = (site: SiteRecord, notice: MailNotice): boolean => site.mail?.notices?.[notice] !== false;

/**
 * The site's own address for a page: where notices link to, and where mailed links lead when
 * the widget named no page. Always https on the site's domain, never the request's Host.
 */
export const siteHome = (site: SiteRecord): string => `https://${site.domain}/`;

/** `page` with the `svcopen` parameter set to `path` (spec 4.1): the widget there opens that screen. */
export function withSvcopen(page: string, path: string): string {
  const url = new URL(page);
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && new URLSearchParams(pair).keys().next().value !== 'svcopen');
  // Written as is (the path holds only [\w/-]): `svcopen=/member/…` reads well in a mail.
  url.search = `?${[...kept, `svcopen=${path}`].join('&')}`;
  return url.href;
}
