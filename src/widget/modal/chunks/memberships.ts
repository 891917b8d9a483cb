/** The member's memberships, to see and to cancel; a chunk of its own (../screen-chunks.ts). */
export { membershipsScreen } from '../screens/memberships';
