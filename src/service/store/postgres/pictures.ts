/** The PostgreSQL store's members' pictures (decision 0039; the statements in ../sql-pictures). */
import type { NewMemberPicture } from '../records';
import { PICTURES, pictureFrom, pictureValues } from '../sql-pictures';
import { memberFrom } from '../sql-rows';
import { ACCOUNT_READS } from '../sql-members';
import type { PictureMethods } from '../store';
import type { PostgresConnection } from './connection';

export function postgresPictures(conn: PostgresConnection): PictureMethods {
  /**
   * The member's picture becomes `picture` (undefined: none), and the one they had goes unless
   * another member of the site has it, in one SERIALIZABLE transaction: a member taking the
   * picture another leaves at the same moment makes one of the two retry, and the row stays.
   */
  const change = (siteId: number, memberId: number, picture: NewMemberPicture | undefined) =>
    conn.transaction(async (tx) => {
      const row = await tx.first(PICTURES.ofMember, siteId, memberId);
      if (!row) return undefined;
      if (picture) await tx.run(PICTURES.insert, ...pictureValues(siteId, picture));
      await tx.run(PICTURES.setOfMember, picture?.hash ?? null, memberId);
      const before = row.picture_hash as string | null;
      if (before !== null && before !== picture?.hash) await tx.run(PICTURES.deleteUnused, siteId, before, siteId, before);
      return memberFrom((await tx.firstRaw(ACCOUNT_READS.memberById, memberId))!);
    });
  return {
    setMemberPicture: (siteId, memberId, picture) => change(siteId, memberId, picture),
    removeMemberPicture: (siteId, memberId) => change(siteId, memberId, undefined),
    async getMemberPicture(hash) {
      const row = await conn.firstRaw(PICTURES.byHash, hash);
      return row && pictureFrom(row);
    },
  };
}
