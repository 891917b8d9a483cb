/** The signed-in member (GET /me) and their metadata (GET, PATCH, DELETE /me/metadata; decision 0009). */
import { assertMetadataPatch, mergeMetadata, MetadataError } from '../domain/metadata';
import { jsonResponse } from '../http/json';
import { readJson } from './body';
import type { MemberApp, MemberContext } from './context';
import { MemberError } from './errors';

export function meRoutes(app: MemberApp, { store, memberInfo, authenticate: member }: Pick<MemberContext, 'store' | 'memberInfo' | 'authenticate'>): void {
  app.get('/sites/:subdomain/me', async (c) => {
    const { member: record } = await member(c);
    return jsonResponse(await memberInfo(c, record), 200, { 'cache-control': 'no-store' });
  });

  app.get('/sites/:subdomain/me/metadata', async (c) => {
    const { member: record } = await member(c);
    return jsonResponse((await store.getMemberMetadata(record.siteId, record.id)) ?? {}, 200, { 'cache-control': 'no-store' });
  });

  app.patch('/sites/:subdomain/me/metadata', async (c) => {
    const { member: record } = await member(c);
    const patch = await readJson(c.req.raw);
    const updated = await asMemberError(async () => {
      assertMetadataPatch(patch);
      return store.updateMemberMetadata(record.siteId, record.id, (current) => mergeMetadata(current, patch));
    });
    return jsonResponse(updated ?? {});
  });

  app.delete('/sites/:subdomain/me/metadata', async (c) => {
    const { member: record } = await member(c);
    return jsonResponse((await store.updateMemberMetadata(record.siteId, record.id, () => ({}))) ?? {});
  });
}

async function asMemberError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MetadataError) throw MemberError.of(error.code === 'metadataTooLarge' ? 413 : 400, error.code, error.message);
    throw error;
  }
}
