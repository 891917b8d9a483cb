/**
 * The demo's mailbox (issue 15): GET /member/v1/sites/demo/mailbox answers the demo site's newest
 * mails, so examples/mail.html can show what a flow sent, links and codes included, on a machine
 * with no mail server. Only the mock server and `svc serve --demo` mount it, and only for the
 * demo site (subdomain `demo`), whose members are made up: on a real site anyone could read
 * every member's reset links here.
 */
import type { Hono } from 'hono';
import { jsonResponse } from '../http/json';
// The outbox's own reading of a mail's links (svc outbox prints the same); portable, unlike ../mail's transports.
import { findLinks } from '../mail/links';
import type { MailRecord, SiteRecord } from '../store/records';
import type { Store } from '../store/store';
import { MemberError } from './errors';

const SHOWN = 20;

export interface DemoMail {
  id: number;
  to: string;
  kind: string;
  subject: string;
  text: string;
  links: string[];
  createdAt: string;
  status: MailRecord['status'];
}

export function demoMailboxRoute(app: Hono<{ Variables: { site: SiteRecord } }>, store: Store): void {
  app.get('/sites/:subdomain/mailbox', async (c) => {
    const site = c.get('site');
    if (site.subdomain !== 'demo') throw MemberError.of(404, 'notFound', 'Only the demo site has a mailbox to show');
    // The outbox pages oldest first; the demo's holds a few hundred mails at most.
    const mine: MailRecord[] = [];
    for (let afterId: number | undefined; ; ) {
      const page = await store.listMail(undefined, { limit: 500, ...(afterId !== undefined && { afterId }) });
      mine.push(...page.items.filter((m) => m.siteId === site.id));
      if (!page.hasMore || page.items.length === 0) break;
      afterId = page.items.at(-1)!.id;
    }
    const newest = mine.slice(-SHOWN).reverse();
    const body: DemoMail[] = newest.map((m) => ({
      id: m.id, to: m.to, kind: m.kind, subject: m.subject, text: m.text, links: findLinks(m.text),
      createdAt: new Date(m.createdAt).toISOString(), status: m.status,
    }));
    return jsonResponse(body, 200, { 'cache-control': 'no-store' });
  });
}
