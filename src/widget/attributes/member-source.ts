import type { MemberInfo } from '../public-types';

/** What the attribute engine draws the page for; the Session is one. */
export interface MemberSource {
  /** The logged-in member, or null when nobody is. */
  readonly _member: MemberInfo | null;
  /** False while a stored login waits for the service: conditional content stays hidden. */
  readonly _known: boolean;
}
