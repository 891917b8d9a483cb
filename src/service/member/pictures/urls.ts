/**
 * Where a stored picture is served (../picture-files.ts): `/member/v1/pictures/<sha-256>.webp`,
 * the hash of its bytes, so the address of given bytes never changes and may be cached for ever.
 * It names no site and no member: nothing about who has it can be read from it, and nobody can
 * guess one without the bytes.
 */
import { MEMBER_BASE_PATH } from '../base-path';

export const PICTURES_PATH = `${MEMBER_BASE_PATH}/pictures`;

/** The absolute URL of the picture with that hash, on the service's origin as the client reached it. */
export const pictureUrl = (origin: string, hash: string): string => `${origin}${PICTURES_PATH}/${hash}.webp`;

/** The hash a picture's file name (`<64 hex>.webp`) names; undefined for any other name. */
export const hashOfFile = (file: string): string | undefined => /^([0-9a-f]{64})\.webp$/.exec(file)?.[1];
