/**
 * Issue 26: `returnTo` (where a mailed link leads) is taken only on the site's own scheme and
 * port: https on the default port, on the site's domain or a subdomain of it. A site on a
 * loopback name (localhost, *.localhost, 127.0.0.1, [::1]) is served by a developer's machine,
 * so there http and any port are the site's too (the demo site, whose domain is demo.localhost,
 * also takes the loopback hosts). A page on another scheme or port of the domain is not the
 * site's: the link leads to the site's home page, as for any page elsewhere. It used to be
 * taken: `http://` and any port on the site's domain.
 */
import { expect, test } from 'vitest';
import { allMail, expectMailSent, lastMailTo, linkOf, post, RESET_SCREEN } from './mail-support';
import { ADA, BASE, expectError, forEachStore, HOUR, OTHER_BASE, OTTO, type MemberCtx } from './support';

/** Asks for a reset link from `returnTo` and answers the page it leads to (without its svcopen). */
async function pageOfLink(ctx: MemberCtx, base: string, email: string, returnTo: string): Promise<string> {
  await expectMailSent(await post(ctx, '/password-reset', { email, returnTo }, base === BASE ? {} : { origin: null }, base), email);
  const link = new URL(linkOf(await lastMailTo(ctx, email, 'passwordReset')));
  expect(link.searchParams.get('svcopen')?.startsWith(`${RESET_SCREEN}/`)).toBe(true);
  link.searchParams.delete('svcopen');
  // Past the send limit of the hour (5 mails per address), for the next one.
  ctx.advance(HOUR);
  return link.href;
}

forEachStore((fresh) => {
  // The other site's domain is other.example: a site on the internet.
  test('on a site on the internet, https on the default port of its domain or a subdomain is taken', async () => {
    const ctx = await fresh();
    expect(ctx.other.site.domain).toBe('other.example');
    for (const [returnTo, page] of [
      ['https://other.example/konto', 'https://other.example/konto'],
      ['https://shop.other.example/konto?x=1#top', 'https://shop.other.example/konto?x=1#top'],
      ['https://other.example:443/a', 'https://other.example/a'],
      ['https://SHOP.Other.Example/b', 'https://shop.other.example/b'],
    ]) {
      expect(await pageOfLink(ctx, OTHER_BASE, OTTO.email, returnTo!), returnTo).toBe(page);
    }
  });

  test('on a site on the internet, http, another port, or both, on its domain is not the site: the link leads home', async () => {
    const ctx = await fresh();
    for (const returnTo of [
      'http://other.example/konto',
      'http://shop.other.example/konto',
      'http://other.example:443/konto',
      'https://other.example:8443/konto',
      'https://shop.other.example:444/',
      'http://other.example:80/',
      'http://other.example:8080/',
    ]) {
      expect(await pageOfLink(ctx, OTHER_BASE, OTTO.email, returnTo), returnTo).toBe('https://other.example/');
    }
  });

  test('on a site on a loopback name, http and any port are taken: demo.localhost, its subdomains and loopback hosts', async () => {
    const ctx = await fresh();
    expect(ctx.demo.site.domain).toBe('demo.localhost');
    for (const returnTo of [
      'http://demo.localhost/a',
      'http://demo.localhost:5173/a?b=1',
      'https://www.demo.localhost:8443/b',
      'http://shop.demo.localhost:3000/',
      'http://localhost:5173/c',
      'http://127.0.0.1:8787/d',
      'http://[::1]:8080/e',
    ]) {
      expect(await pageOfLink(ctx, BASE, ADA.email, returnTo), returnTo).toBe(returnTo);
    }
  });

  test('a loopback host is still no page of a site on the internet', async () => {
    const ctx = await fresh();
    for (const returnTo of ['http://localhost:5173/', 'https://127.0.0.1/', 'http://other.localhost/']) {
      expect(await pageOfLink(ctx, OTHER_BASE, OTTO.email, returnTo), returnTo).toBe('https://other.example/');
    }
  });

  test('a returnTo with a control character (which the URL parser would drop unseen) is 400 on returnTo, and no mail is queued', async () => {
    const ctx = await fresh();
    for (const returnTo of ['https://demo.localhost/a\tb', 'https://demo.localhost/\n', 'https://demo.\u0000localhost/', 'https://demo.localhost/\u0085']) {
      await expectError(await post(ctx, '/password-reset', { email: ADA.email, returnTo }), 400, 'invalidField', 'returnTo');
    }
    expect(await allMail(ctx)).toEqual([]);
  });
});
