/**
 * Members' uploaded pictures (decision 0039) as both SQL stores (./sqlite, ./postgres) keep them:
 * `member_pictures`, one row per site and SHA-256 of the bytes, and `members.picture_hash`, the
 * picture a member has. No foreign key joins the two (SQLite cannot add a composite one to an
 * existing table): the stores' transactions keep every member's hash one of the site's rows, and
 * a row goes only when no member of its site has it any more.
 */
import type { MemberPictureRecord, NewMemberPicture } from './records';
import type { RawRow } from './sql-rows';

export const PICTURES = {
  /** The member's picture hash (NULL for none); no row without such a member. Values: site id, member id. */
  ofMember: 'SELECT picture_hash FROM members WHERE site_id = ? AND id = ?',
  /** A picture the site keeps already stays as it is: the same hash is the same bytes. Values: pictureValues. */
  insert: `INSERT INTO member_pictures (site_id, hash, content_type, bytes, created_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (site_id, hash) DO NOTHING`,
  /** An upload or a removal replaces whatever profile image the member had. Values: hash or NULL, member id. */
  setOfMember: 'UPDATE members SET picture_hash = ?, profile_image_url = NULL WHERE id = ?',
  /** Deletes the site's picture unless a member of the site still has it. Values: site id, hash, site id, hash. */
  deleteUnused: `DELETE FROM member_pictures WHERE site_id = ? AND hash = ?
    AND NOT EXISTS (SELECT 1 FROM members WHERE site_id = ? AND picture_hash = ?)`,
  /** Raw rows. Values: hash. */
  byHash: 'SELECT site_id, hash, content_type, bytes, created_at FROM member_pictures WHERE hash = ? LIMIT 1',
} as const;

export const pictureValues = (siteId: number, p: NewMemberPicture) => [siteId, p.hash, p.contentType, p.bytes, p.createdAt] as const;

export function pictureFrom(r: RawRow): MemberPictureRecord {
  // Both drivers read the bytes as a Buffer: handed out as the plain Uint8Array the record names.
  const bytes = r[3] as Uint8Array;
  return {
    siteId: r[0] as number,
    hash: r[1] as string,
    contentType: r[2] as string,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    createdAt: r[4] as number,
  };
}
