/**
 * The contract every Store implementation passes. Each implementation's test file calls
 * `runStoreContract` with a factory of fresh, empty stores; the tests live in ./store-contract/.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../src/service/store/store';
import { accountUpdateTests } from './store-contract/account-updates';
import { contentAccessTests } from './store-contract/content-access';
import { accountTests } from './store-contract/accounts';
import { activityTests } from './store-contract/activity';
import { bulkLoadTests } from './store-contract/bulk-load';
import { definitionReadTests } from './store-contract/definition-reads';
import { type Ctx, newSite } from './store-contract/fixtures';
import { limitTests } from './store-contract/limits';
import { memberTokenTests } from './store-contract/member-tokens';
import { membershipTests } from './store-contract/memberships';
import { memberTests } from './store-contract/members';
import { metadataTests } from './store-contract/metadata';
import { outboxTests } from './store-contract/outbox';
import { paymentBatchTests } from './store-contract/payment-batches';
import { paymentTests } from './store-contract/payments';
import { pictureTests } from './store-contract/pictures';
import { planTests } from './store-contract/plans';
import { processorEventTests } from './store-contract/processor-events';
import { ownerTests } from './store-contract/owner';
import { sessionTests } from './store-contract/sessions';
import { siteDefinitionTests } from './store-contract/site-definition';
import { siteTests } from './store-contract/sites';
import { testProcessorTests } from './store-contract/test-processor';
import { webhookAnnouncementTests } from './store-contract/webhook-announcements';
import { webhookTests } from './store-contract/webhooks';

export function runStoreContract(name: string, newStore: () => Store | Promise<Store>): void {
  describe(name, () => {
    const ctx = {} as Ctx;
    beforeEach(async () => {
      ctx.store = await newStore();
      ctx.a = await ctx.store.createSite(newSite('alpha'));
      ctx.b = await ctx.store.createSite(newSite('beta', { adminApiEnabled: false }));
    });
    afterEach(async () => {
      await ctx.store.close();
    });

    siteTests(ctx);
    planTests(ctx);
    memberTests(ctx);
    membershipTests(ctx);
    activityTests(ctx);
    accountTests(ctx);
    sessionTests(ctx);
    outboxTests(ctx);
    memberTokenTests(ctx);
    accountUpdateTests(ctx);
    metadataTests(ctx);
    pictureTests(ctx);
    paymentTests(ctx);
    paymentBatchTests(ctx);
    contentAccessTests(ctx);
    siteDefinitionTests(ctx);
    limitTests(ctx);
    testProcessorTests(ctx);
    processorEventTests(ctx);
    ownerTests(ctx);
    webhookTests(ctx);
    webhookAnnouncementTests(ctx);
    definitionReadTests(ctx);
    bulkLoadTests(ctx);
  });
}
