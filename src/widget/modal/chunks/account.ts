/** The account's screens: one chunk, downloaded the first time one of them is drawn (../screen-chunks.ts). */
export { accountScreen } from '../screens/account';
export { accountEditScreen, emailChangeScreen, passwordChangeScreen } from '../screens/account-forms';
export { invoicesScreen } from '../screens/invoices';
export { memberMenuScreen } from '../screens/member-menu';
export { membershipsScreen } from '../screens/memberships';
