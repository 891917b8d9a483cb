/** The memory store's members' pictures (decision 0039): kept by site and hash beside the members table. */
import type { MemberPictureRecord, MemberRecord, NewMemberPicture } from '../records';
import type { PictureMethods } from '../store';
import { copy, type Table } from './table';

/** The pictures part: its Store methods, and eraseMember's part here (the member's picture let go). */
export interface MemoryPictures {
  methods: PictureMethods;
  dropPictureOf(siteId: number, memberId: number): void;
}

export function memoryPictures(members: Table<MemberRecord>): MemoryPictures {
  /** By `${siteId}\n${hash}`. */
  const pictures = new Map<string, MemberPictureRecord>();
  const key = (siteId: number, hash: string) => `${siteId}\n${hash}`;

  function change(siteId: number, memberId: number, picture: NewMemberPicture | undefined): MemberRecord | undefined {
    const member = members.byId.get(memberId);
    if (!member || member.siteId !== siteId) return undefined;
    const before = member.pictureHash;
    if (picture && !pictures.has(key(siteId, picture.hash))) pictures.set(key(siteId, picture.hash), { ...copy(picture), siteId });
    if (picture) member.pictureHash = picture.hash;
    else delete member.pictureHash;
    delete member.profileImageUrl;
    if (before !== undefined && before !== picture?.hash && !members.rows.some((m) => m.siteId === siteId && m.pictureHash === before)) {
      pictures.delete(key(siteId, before));
    }
    return copy(member);
  }

  return {
    methods: {
      setMemberPicture: async (siteId, memberId, picture) => change(siteId, memberId, picture),
      removeMemberPicture: async (siteId, memberId) => change(siteId, memberId, undefined),
      async getMemberPicture(hash) {
        for (const picture of pictures.values()) if (picture.hash === hash) return copy(picture);
        return undefined;
      },
    },
    dropPictureOf: (siteId, memberId) => void change(siteId, memberId, undefined),
  };
}
