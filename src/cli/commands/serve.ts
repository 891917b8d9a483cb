import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuild } from '../../../scripts/lib/ensure-build';
import { distDir, repoRoot } from '../../../scripts/lib/paths';
import { SCOPES } from '../../contract/admin';
import { issueApiKey } from '../../service/auth/api-keys';
import { createPasswordHasher } from '../../service/auth/passwords';
import { createServiceApp } from '../../service/app';
import { runRenewals, type RenewalDeps } from '../../service/billing/renewals';
import { TestPaymentProcessor } from '../../service/payments/test-processor';
import { nodeScrypt } from '../../service/platform/node-scrypt';
import { ensureDemoLogin, DEMO_LOGIN } from '../../service/seed/demo-login';
import { systemClock } from '../../service/domain/clock';
import { createMailTransport, formatMailbox, MailConfigError, readMailConfig, type MailConfig } from '../../service/mail';
import { startMailSender } from '../../service/mail/send-queued';
import { runPeriodically } from '../../service/periodic';
import { listen } from '../../service/server';
import { withStaticFiles } from '../../service/static-files';
import { ensureDemoSite, seedMembers } from '../../service/seed/demo';
import { openSqliteStore } from '../../service/store/sqlite';
import { dbPath, serveConfig, UsageError } from '../config';
import type { Io } from '../io';

export const SERVE_USAGE = ['svc serve [--demo] [--db PATH]   (env PORT, HOST, SVC_DB, SVC_ADMIN_RATE_LIMIT, SVC_SIGNUP_RATE_LIMIT, SVC_TRUST_PROXY, SVC_SMTP_URL, SVC_MAIL_FROM, SVC_OUTBOX_DIR)'];

/**
 * Serves until SIGINT/SIGTERM. With --demo (what `npm start` runs), an empty database gets the
 * demo site first, with its published member login; without it nothing is created, so a fresh
 * production install has no account anyone knows the password of.
 */
export async function serveCommand(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { db: { type: 'string' }, demo: { type: 'boolean', default: false } } });
  const config = serveConfig(env);
  // Listening for the stop signal from the start, so one that comes early still stops cleanly.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  const path = dbPath(values.db, env);
  // Where mail goes, checked before anything starts: a bad SVC_SMTP_URL is a usage error (exit 2).
  let mail: MailConfig;
  try {
    mail = readMailConfig(env, path);
  } catch (error) {
    if (error instanceof MailConfigError) throw new UsageError(error.message);
    throw error;
  }
  const widgetReady = await prepareWidget(io);
  const examplesDir = join(repoRoot, 'examples');
  const store = openSqliteStore(path);
  const passwords = createPasswordHasher(nodeScrypt, config.scrypt);
  const processor = new TestPaymentProcessor({ clock: systemClock });
  let server;
  let demoSiteId: number | undefined;
  let siteCount = 0;
  try {
    siteCount = (await store.listSites()).length;
    if (siteCount === 0 && values.demo) {
      const { site } = await ensureDemoSite(store, systemClock);
      await seedMembers(store, systemClock, site, { members: 300, seed: 1 });
      await ensureDemoLogin(store, systemClock, site, passwords);
      demoSiteId = site.id;
    }
    const app = await createServiceApp({
      store,
      clock: systemClock,
      passwords,
      processor,
      signupRateLimit: config.signupRateLimit,
      trustedProxies: config.trustedProxies,
      ...(config.rateLimit && { adminRateLimit: config.rateLimit }),
      // The demo site's mailbox for examples/mail.html: with --demo only, and the demo site's only.
      demoMailbox: values.demo,
    });
    server = await listen(withStaticFiles(app.fetch, { scriptsDir: distDir, examplesDir }), config.port, config.host);
  } catch (error) {
    await store.close();
    throw error;
  }
  // Issued only once the service is up, so a failed start never swallows the one showing of a key.
  // It goes out before "serving on": a script that waits for that line has the key already.
  const demoKey =
    demoSiteId === undefined ? undefined : (await issueApiKey(store, systemClock, { siteId: demoSiteId, scopes: [...SCOPES] })).key;
  if (demoKey) io.out(demoKey);
  io.err(`serving on ${server.url} (database ${path})`);
  io.err(`Admin API:  ${server.url}/admin/v1/sites   (OpenAPI: ${server.url}/admin/v1/openapi.json)`);
  if (widgetReady) io.err(`widget:     ${server.url}/scripts/widgets.js`);
  if (existsSync(examplesDir)) io.err(`examples:   ${server.url}/examples/`);
  if (demoKey) {
    // The key is said once, on stdout: never again in a hint on stderr, where logs keep it.
    io.err('seeded the demo site (subdomain demo) with 300 members; its Admin API key (all scopes) is the line on stdout, shown once');
    io.err(`try: curl -H "Authorization: Bearer $KEY" ${server.url}/admin/v1/members   (KEY: that line)`);
    io.err(`demo member sign-in: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`);
  } else if (siteCount === 0) {
    io.err('this database has no site yet, and nobody can sign in to anything. Describe yours in a file and apply it');
    io.err('(examples/sites/newsletter.yaml is one to start from; README, "Run your own site"):');
    io.err('  npx svc sites apply site.yaml');
    io.err('or run `npm start` (svc serve --demo) on a new database for the demo site.');
  } else {
    io.err('make an Admin API key with: npx svc keys create --site SUBDOMAIN --scopes ' + SCOPES.join(','));
  }
  const billing = startBilling({ store, clock: systemClock, processor }, io);
  const transport = createMailTransport(mail);
  io.err(mail.kind === 'smtp' ? `mail:       through ${mail.serverLabel}` : `mail:       to the outbox ${mail.dir} (read it with: npx svc outbox --follow)`);
  const mailer = startMailSender({ store, transport, clock: systemClock, fromAddress: formatMailbox(mail.from), report: (message) => io.err(`mail: ${message}`) }, MAIL_EVERY_MS);
  await stopRequested;
  io.err('stopping');
  await billing.stop();
  // Mail in flight is finished (or left to its lease, never lost) before the store closes.
  await mailer.stop();
  await transport.close();
  await server.close();
  await store.close();
  return 0;
}

/**
 * Builds dist/ when it is missing or older than src/widget (a fresh clone, an edited widget), so
 * `npm start` serves a current /scripts/widgets.js. A failed build does not stop the service:
 * the member and Admin APIs work without it. True when a widget bundle is there to serve.
 */
async function prepareWidget(io: Io): Promise<boolean> {
  const outcome = await ensureBuild(['widget']);
  const built = existsSync(join(distDir, 'widgets.js'));
  if (outcome === 'no-widget') io.err('src/widget/index.ts does not exist yet: /scripts/widgets.js answers 404');
  if (outcome === 'failed') {
    io.err(`the widget build failed (see above): ${built ? 'serving the previous build from dist/' : '/scripts/widgets.js answers 404'}`);
  }
  return built;
}

export const BILLING_EVERY_MS = 5 * 60_000;
/** How often the outbox is looked at for mail that has come due (a retry, another process's). */
export const MAIL_EVERY_MS = 2_000;

/**
 * Renewals, instalments and retries (billing/renewals.ts): once at start, then every few
 * minutes, one run at a time. What a run did is said only when it did something.
 */
function startBilling(deps: RenewalDeps, io: Io): { stop(): Promise<void> } {
  return runPeriodically(
    async () => {
      const report = await runRenewals(deps, (error, what) => io.err(`billing: ${what}: ${(error as Error).message}`));
      if (Object.values(report).some((n) => n > 0)) io.err(`billing: ${JSON.stringify(report)}`);
    },
    BILLING_EVERY_MS,
    (error) => io.err(`billing: the run failed and is tried again in ${BILLING_EVERY_MS / 60_000} minutes: ${(error as Error).message}`),
  );
}
