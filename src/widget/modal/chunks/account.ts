/** The account's first screen and the member menu; a chunk of their own (../screen-chunks.ts). */
export { accountScreen } from '../screens/account';
export { memberMenuScreen } from '../screens/member-menu';
