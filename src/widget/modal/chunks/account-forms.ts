/** The account's forms: the name and fields, the e-mail address, the password; one chunk (../screen-chunks.ts). */
export { accountEditScreen, emailChangeScreen, passwordChangeScreen } from '../screens/account-forms';
