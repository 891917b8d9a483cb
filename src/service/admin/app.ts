/**
 * The Admin API under /admin/v1: the spec's reads, and the owner's actions under write scopes of
 * their own (issue 32). Every request authenticated (except the OpenAPI description), every
 * answer JSON, every failure the error body of spec section 7.
 */
import { Hono } from 'hono';
import type { Clock } from '../domain/clock';
import { parseId } from '../domain/validation';
import { replaceAnswer, withHeaders } from '../http/answer';
import { isoTime, jsonResponse } from '../http/json';
import type { Store } from '../store/store';
import { authenticate, requireScope, type AdminEnv } from './auth';
import { CursorCodec } from './cursor';
import {
  contentViewsEndpoint,
  invoicesEndpoint,
  memberEventsEndpoint,
  membersEndpoint,
  membershipsEndpoint,
  plansEndpoint,
  plansWithCounts,
} from './endpoints';
import { AdminError, notFound } from './errors';
import { listHandler } from './list-endpoint';
import { openApiDocument } from './openapi';
import { RateLimiter, type RateLimit } from '../http/rate-limit';
import { toSite } from './serialize';
import { ownerRoutes } from './owner-routes';
import type { ProcessorFor } from '../payments/processor-for';

export interface AdminApiOptions {
  store: Store;
  clock: Clock;
  /** The site's payment processor, which the owner's refunds and erasures ask (issue 32). */
  processorFor: ProcessorFor;
  /** Signs cursors; keep it stable across restarts or open cursors stop working. */
  cursorSecret: string;
  /** Per key; omit for no limit. */
  rateLimit?: RateLimit;
}

export const ADMIN_BASE_PATH = '/admin/v1';
const NO_STORE = { 'cache-control': 'no-store' };

export function adminApi({ store, clock, processorFor, cursorSecret, rateLimit }: AdminApiOptions): Hono<AdminEnv> {
  const app = new Hono<AdminEnv>();
  const cursors = new CursorCodec(cursorSecret);
  const openApiBody = JSON.stringify(openApiDocument);

  // Answers are member data: no browser or proxy keeps one, errors (401, 429, …) included. First,
  // so it wraps the key check and every route; the app adds nosniff and the JSON CSP (app.ts).
  app.use('*', async (c, next) => {
    await next();
    replaceAnswer(c, withHeaders(c.res, NO_STORE));
  });

  app.get('/openapi.json', () => new Response(openApiBody, { headers: { 'content-type': 'application/json' } }));

  app.use('*', authenticate(store, clock, rateLimit && new RateLimiter(store, 'admin-key', rateLimit)));

  // Any valid key reads its own site: the spec lists no 404 for /sites, so no scope guards it.
  // One item, so never a next page; the header says so like every other list's.
  app.get('/sites', async (c) => {
    const site = c.get('site');
    return jsonResponse([toSite(site, await store.siteMetrics(site.id))], 200, {
      'x-total-count': '1',
      'x-has-more-items-after': 'false',
    });
  });

  // The key itself (any valid key): its scopes, so a client such as the console offers what they allow.
  app.get('/key', (c) => {
    const key = c.get('key');
    return jsonResponse({ id: key.id, scopes: key.scopes, createdAt: isoTime(key.createdAt), expiresAt: key.expiresAt === undefined ? undefined : isoTime(key.expiresAt) });
  });

  app.get('/plans/:id', async (c) => {
    requireScope(c.get('key'), 'read.plans');
    const id = c.req.param('id');
    // The spec lists no 400 here: an id that cannot exist (`abc`, `0372`, `372.0`) is simply not found.
    const planId = parseId(id);
    const plan = planId === undefined ? undefined : await store.getPlan(c.get('site').id, planId);
    if (!plan) throw notFound(`No plan with id ${JSON.stringify(id.slice(0, 50))}`);
    const [wire] = await plansWithCounts(store, plan.siteId, [plan]);
    return jsonResponse(wire);
  });

  app.get(plansEndpoint.path, listHandler(plansEndpoint, store, cursors));
  app.get(membersEndpoint.path, listHandler(membersEndpoint, store, cursors));
  app.get(membershipsEndpoint.path, listHandler(membershipsEndpoint, store, cursors));
  app.get(memberEventsEndpoint.path, listHandler(memberEventsEndpoint, store, cursors));
  app.get(contentViewsEndpoint.path, listHandler(contentViewsEndpoint, store, cursors));
  app.get(invoicesEndpoint.path, listHandler(invoicesEndpoint, store, cursors));

  // The owner's actions, under write scopes of their own (issue 32).
  ownerRoutes(app, { store, clock, processorFor });

  // Every path above answers any other method with 405 naming those it takes: the spec's reads
  // stay read-only by design, not by accident.
  const methods = new Map<string, Set<string>>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL') continue;
    methods.set(path, (methods.get(path) ?? new Set()).add(method));
  }
  for (const [path, taken] of methods) {
    const allow = [...taken, ...(taken.has('GET') ? ['HEAD'] : [])].join(', ');
    app.all(path, () => {
      throw AdminError.of(405, 'methodNotAllowed', `${path} takes ${allow} only`, 'base', { allow });
    });
  }

  app.notFound(() => notFound('No such endpoint').toResponse());
  return app;
}
