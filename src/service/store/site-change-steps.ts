/**
 * Carrying out a site's change set (./site-definition) in SQL, written once for both SQL stores.
 *
 * SQLite runs a transaction as one synchronous call (better-sqlite3 allows nothing else, and no
 * other request may run inside it); PostgreSQL's is asynchronous. So the work is a generator of
 * statements: it yields each one and is resumed with its answer, and each store drives it with
 * its own driver (runSteps, runStepsAsync) inside its own transaction. The caller has checked
 * nothing: every reference and rule is checked here, and a refusal throws, which rolls back.
 */
import { ConflictError, MissingReferenceError } from './errors';
import type { SiteChangeSet } from './site-definition';
import { sameJson } from './site-definition';
import {
  INSERT_CONTENT_NODE,
  INSERT_CONTENT_SPACE,
  INSERT_PLAN,
  INSERT_SIGNUP_FIELD,
  INSERT_SITE,
  LINK_SPACE_PLAN,
  SITE_CHANGES as sql,
  UPDATE_SITE,
  contentNodeValues,
  itemChangeValues,
  planChangeValues,
  planTerms,
  planValues,
  signupFieldChangeValues,
  signupFieldValues,
  sitePatchValues,
  siteValues,
  type Row,
  type Value,
} from './sql-rows';

/** A statement to run: `first` answers its first row, `run` how many rows it changed, `insert` the new row's id. */
export type Step = { kind: 'first' | 'run' | 'insert'; text: string; values: Value[] };
type Steps<T> = Generator<Step, T, unknown>;

/** Runs the steps with a driver that answers each statement at once (SQLite). */
export function runSteps<T>(steps: Steps<T>, answer: (step: Step) => unknown): T {
  let next = steps.next();
  while (!next.done) next = steps.next(answer(next.value));
  return next.value;
}
/** Runs the steps with a driver whose answers come later (PostgreSQL). */
export async function runStepsAsync<T>(steps: Steps<T>, answer: (step: Step) => Promise<unknown>): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await answer(next.value));
  return next.value;
}

function* first(text: string, ...values: Value[]): Steps<Row | undefined> {
  return (yield { kind: 'first', text, values }) as Row | undefined;
}
function* run(text: string, ...values: Value[]): Steps<number> {
  return (yield { kind: 'run', text, values }) as number;
}
function* insert(text: string, ...values: Value[]): Steps<number> {
  return (yield { kind: 'insert', text, values }) as number;
}

/** The whole change set, in the order its rows refer to each other; returns the site's id. */
export function* siteChangeSteps(changes: SiteChangeSet): Steps<number> {
  const siteId = yield* siteStep(changes.site);
  yield* planSteps(siteId, changes);
  yield* signupFieldSteps(siteId, changes);
  yield* spaceSteps(siteId, changes);
  yield* itemSteps(siteId, changes);
  return siteId;
}

function* siteStep(site: SiteChangeSet['site']): Steps<number> {
  if ('create' in site) {
    const { create } = site;
    if (yield* first(sql.subdomainTaken, create.subdomain)) throw new ConflictError('subdomain', `subdomain ${create.subdomain} is taken`);
    return yield* insert(INSERT_SITE, ...siteValues(create));
  }
  const current = yield* first(sql.revision, site.id);
  if (!current) throw new MissingReferenceError('siteId', `site ${site.id} does not exist`);
  if (current.revision !== site.revision) throw new ConflictError('revision', 'the site changed since its definition was read');
  yield* run(UPDATE_SITE, ...sitePatchValues(site.id, site.patch));
  return site.id;
}

function* planSteps(siteId: number, changes: SiteChangeSet): Steps<void> {
  for (const p of changes.createPlans) yield* run(INSERT_PLAN, ...planValues(siteId, p));
  for (const p of changes.updatePlans) {
    const before = yield* first(sql.planBefore, siteId, p.id);
    if (!before) throw new MissingReferenceError('planId', `plan ${p.id} does not exist in site ${siteId}`);
    if (before.type !== p.type) throw new ConflictError('type', `plan ${p.id} is a ${before.type as string} plan`);
    const oldBilling = (JSON.parse(before.terms as string) as { billing?: unknown }).billing;
    if (oldBilling !== undefined && !sameJson(oldBilling, planTerms(p).billing)) {
      yield* run(sql.keepBilling, JSON.stringify(oldBilling), siteId, p.id);
    }
    yield* run(sql.updatePlan, ...planChangeValues(siteId, p));
  }
}

function* signupFieldSteps(siteId: number, changes: SiteChangeSet): Steps<void> {
  for (const f of changes.createSignupFields) yield* run(INSERT_SIGNUP_FIELD, ...signupFieldValues(siteId, f));
  for (const f of changes.updateSignupFields) {
    if ((yield* run(sql.updateSignupField, ...signupFieldChangeValues(siteId, changes.at, f))) === 0) {
      throw new MissingReferenceError('fieldId', `sign-up field ${f.id} does not exist in site ${siteId}`);
    }
  }
}

/** Spaces before items: an item names the live space it goes to. Archived spaces first, so a new one may take a freed name. */
function* spaceSteps(siteId: number, changes: SiteChangeSet): Steps<void> {
  function* linkPlans(spaceId: number, planKeys: readonly string[]): Steps<void> {
    yield* run(sql.unlinkSpace, siteId, spaceId);
    for (const key of planKeys) {
      const plan = yield* first(sql.planIdByKey, siteId, key);
      if (!plan) throw new MissingReferenceError('planKeys', `plan ${key} does not exist in site ${siteId}`);
      yield* run(LINK_SPACE_PLAN, siteId, spaceId, plan.id as number);
    }
  }
  for (const s of changes.updateSpaces) {
    if ((yield* run(sql.updateSpace, s.archived ? 1 : 0, changes.at, siteId, s.id)) === 0) {
      throw new MissingReferenceError('spaceId', `space ${s.id} does not exist in site ${siteId}`);
    }
    yield* linkPlans(s.id, s.planKeys);
  }
  for (const s of changes.createSpaces) {
    if (yield* first(sql.liveSpaceByName, siteId, s.name)) throw new ConflictError('space', `the site has a space named ${s.name}`);
    yield* linkPlans(yield* insert(INSERT_CONTENT_SPACE, siteId, s.name), s.planKeys);
  }
}

function* itemSteps(siteId: number, changes: SiteChangeSet): Steps<void> {
  function* liveSpaceId(name: string): Steps<number> {
    const row = yield* first(sql.liveSpaceByName, siteId, name);
    if (!row) throw new MissingReferenceError('space', `space ${name} does not exist in site ${siteId}`);
    return row.id as number;
  }
  for (const i of changes.updateItems) {
    const space = i.space === undefined ? null : yield* liveSpaceId(i.space);
    if ((yield* run(sql.updateItem, ...itemChangeValues(siteId, changes.at, space, i))) === 0) {
      throw new MissingReferenceError('itemId', `content item ${i.id} does not exist in site ${siteId}`);
    }
  }
  for (const i of changes.createItems) yield* run(INSERT_CONTENT_NODE, ...contentNodeValues(siteId, yield* liveSpaceId(i.space), i));
}
