/** The SQLite store's members' pictures (decision 0039; the statements in ../sql-pictures). */
import type { NewMemberPicture } from '../records';
import { PICTURES, pictureFrom, pictureValues } from '../sql-pictures';
import { memberFrom } from '../sql-rows';
import { ACCOUNT_READS } from '../sql-members';
import type { PictureMethods } from '../store';
import type { SqliteConnection } from './connection';

export function sqlitePictures({ db, sql, first, firstRaw }: SqliteConnection): PictureMethods {
  /**
   * The member's picture becomes `picture` (undefined: none), and the one they had goes unless
   * another member of the site has it: one immediate transaction, so no other connection sees
   * the picture gone while a member still has it.
   */
  const change = db.transaction((siteId: number, memberId: number, picture: NewMemberPicture | undefined) => {
    const row = first(PICTURES.ofMember, siteId, memberId);
    if (!row) return undefined;
    if (picture) sql(PICTURES.insert).run(...pictureValues(siteId, picture));
    sql(PICTURES.setOfMember).run(picture?.hash ?? null, memberId);
    const before = row.picture_hash as string | null;
    if (before !== null && before !== picture?.hash) sql(PICTURES.deleteUnused).run(siteId, before, siteId, before);
    return memberFrom(firstRaw(ACCOUNT_READS.memberById, memberId)!);
  });
  return {
    setMemberPicture: async (siteId, memberId, picture) => change.immediate(siteId, memberId, picture),
    removeMemberPicture: async (siteId, memberId) => change.immediate(siteId, memberId, undefined),
    async getMemberPicture(hash) {
      const row = firstRaw(PICTURES.byHash, hash);
      return row && pictureFrom(row);
    },
  };
}
