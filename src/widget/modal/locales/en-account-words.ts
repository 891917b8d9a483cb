import type { AccountWords } from '../messages';

/** The account's screens' words in English: a chunk of their own, downloaded with those screens (../screen-chunks.ts). */
export const enAccount: AccountWords = {
  account: 'Your account',
  editAccount: 'Edit your details',
  newEmail: 'New e-mail',
  currentPassword: 'Current password',
  memberships: 'Your memberships',
  noMemberships: 'You have no membership yet.',
  cancel: 'Cancel',
  cancelAsk: (plan, date) => `Cancel ${plan}? You keep access until ${date}, and nothing more is charged.`,
  cancelYes: 'Yes, cancel it',
  keep: 'Keep it',
  cancelsOn: (date) => `Ends on ${date}`,
  renewsOn: (date) => `Renews on ${date}`,
  movesTo: (plan, date) => `Moves to ${plan} on ${date}`,
  expiresOn: (date) => `Expires on ${date}`,
  invoices: 'Invoices',
  firstInvoice: (plan, date) => `Your ${plan} trial ends ${date}; its first invoice comes then.`,
  noInvoices: 'No invoices yet.',
  paymentFailed: 'The last payment failed; it is tried again in a day.',
  updateCard: 'Use another card',
  invoiceColumns: ['Invoice', 'Amount', 'Status'],
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  attempt: (description) => `${description} (attempt, not charged)`,
  picture: 'Profile picture',
  uploadPicture: 'Upload picture',
  removePicture: 'Remove picture',
  menu: 'Menu',
  logOut: 'Log out',
  signedInAs: (name) => `Logged in as ${name}`,
  // The account forms' titles, which the mailed links' screens show too.
  changeEmail: 'Change e-mail',
  changePassword: 'Change password',
  newPassword: 'New password',
  // The account's forms check the current password.
  errors: {
    currentPassword: 'The current password is wrong.',
    // The picture's refusals (PUT /me/picture).
    pictureTooLarge: 'The picture is too large: at most 2 MB.',
    unsupportedPicture: 'Choose a JPEG, PNG or WebP picture.',
    invalidPicture: 'The picture cannot be read (damaged, or over 25 megapixels). Choose another.',
  },
};
