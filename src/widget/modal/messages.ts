
/**
 * The modal's words, by the site's locale (GET /config): English, and German as the second
 * language (./locales, one file each). A locale without a catalogue reads English. Each
 * language's screens are a bundle of their own that holds only its words (modal/index*.ts,
 * docs/decisions/0023-modal-catalogues.md).
 */
export interface Messages {
  close: string;
  back: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  logIn: string;
  logOut: string;
  register: string;
  createAccount: string;
  /** Above the registration form when a plan's sign-up follows. */
  registerFor: (plan: string) => string;
  noAccount: string;
  haveAccount: string;
  account: string;
  loading: string;
  required: string;
  problem: string;
  editAccount: string;
  save: string;
  saved: string;
  changeEmail: string;
  newEmail: string;
  currentPassword: string;
  changePassword: string;
  newPassword: string;
  paymentMethod: string;
  noCard: string;
  saveCard: string;
  /** The saved card's screen: a payment that failed (one the bank held for the member), paid now. */
  payNow: string;
  plans: string;
  noPlans: string;
  choose: string;
  /** A plan's sign-up button, by what it does: a free plan, a trial, a subscription, a payment of `amount`. */
  joinFree: string;
  startTrial: (days: number) => string;
  subscribe: string;
  pay: (amount: string) => string;
  free: string;
  once: string;
  /** Interval units, singular: "month" in "$12.00 / month". */
  units: Record<'day' | 'week' | 'month' | 'year', string>;
  payments: (count: number) => string;
  trial: (days: number) => string;
  signupFee: string;
  tax: (percent: string) => string;
  billedOn: (day: number, month?: string) => string;
  accessUntil: (date: string) => string;
  dueNow: string;
  /** The order summary's last line: what is charged after today. */
  then: (price: string, date: string) => string;
  /** The same after a trial: its first charge ends the trial, it renews nothing. */
  trialThen: (price: string, date: string) => string;
  cardNumber: string;
  cardExpiry: string;
  cardCvc: string;
  savedCard: (brand: string, last4: string) => string;
  /** Shows a new card's fields beside a saved card. */
  anotherCard: string;
  memberships: string;
  noMemberships: string;
  cancel: string;
  /** Asked before a membership is cancelled, with the two answers. */
  cancelAsk: (plan: string, date: string) => string;
  cancelYes: string;
  keep: string;
  cancelsOn: (date: string) => string;
  renewsOn: (date: string) => string;
  /** A downgrade that waits for the period's end. */
  movesTo: (plan: string, date: string) => string;
  expiresOn: (date: string) => string;
  invoices: string;
  noInvoices: string;
  /** No invoice yet during a trial: when the first one comes. */
  firstInvoice: (plan: string, date: string) => string;
  /** Empty states' next step: to the plans. */
  seePlans: string;
  paymentFailed: string;
  updateCard: string;
  /** The invoice table's column headers: what and when, amount, status. */
  invoiceColumns: [string, string, string];
  paid: string;
  failed: string;
  /** The badge of an invoice paid, then refunded through the processor. */
  refunded: string;
  /** An invoice row of a charge that failed: an attempt, not a second invoice. */
  attempt: (description: string) => string;
  /** After a sign-up on a plan with no welcome page of the owner's: the reader stays on the page. */
  joined: (plan: string) => string;
  /** Its button, which closes the dialog. */
  carryOn: string;
  /** A sign-up link to a plan that is no longer offered (archived, or never there). */
  planGone: string;
  /** Marks, in the plans, a plan the member has already. */
  yourPlan: string;
  /** A password field's toggle (a pressed button shows what was typed), and a new password's rule, shown under it. */
  showPassword: string;
  passwordRule: string;
  /** A sign-up's password rule: it may be left empty (an account that logs in with mailed codes). */
  passwordOrCode: string;
  /** The plan the owner recommends (the plans screen's badge). */
  recommended: string;
  /** The switch between monthly and yearly prices: its name, and its two choices. */
  billing: string;
  monthly: string;
  yearly: string;
  /** The account's profile picture (decision 0039): the file field's label, and its two buttons. */
  picture: string;
  uploadPicture: string;
  removePicture: string;
  /** The member menu's title and greeting. */
  menu: string;
  signedInAs: (name: string) => string;
  /** Protected content. */
  open: string;
  downloading: (name: string) => string;
  downloadAgain: string;
  /** The paywall's first line, naming the item closed to the reader. */
  contentFor: (name: string) => string;
  contentClosed: (name: string) => string;
  noContent: string;
  /** Logging in without the password: a reset link, or a code, by e-mail. */
  forgotPassword: string;
  emailCode: string;
  emailLink: string;
  checkInbox: string;
  /** After asking for a reset link: said whether or not the address is a member's. */
  resetSent: (email: string) => string;
  codeSent: (email: string) => string;
  /** After registering on a site that lets members in once their address is confirmed, or changing it. */
  confirmEmail: (email: string) => string;
  code: string;
  newCode: string;
  sent: string;
  passwordSaved: string;
  emailNow: (email: string) => string;
  /** Changing plans (decision 0036): the screen's title and button, what changes, a credit, a change at the period's end, and the outcome. */
  changePlan: string;
  changeFrom: (from: string, to: string) => string;
  credit: (amount: string) => string;
  changesOn: (date: string) => string;
  planNow: (plan: string) => string;
  planLater: (plan: string, date: string) => string;
  /** By error code; anything else shows the service's own message. */
  errors: Partial<Record<
    | 'invalidCredentials' | 'currentPassword' | 'emailTaken' | 'rateLimited' | 'networkError' | 'memberBlocked' | 'paymentDeclined'
    | 'tokenInvalid' | 'tokenUsed' | 'tokenExpired' | 'invalidCode' | 'codeExpired' | 'emailNotConfirmed'
    | 'pictureTooLarge' | 'unsupportedPicture' | 'invalidPicture',
    string
  >>;
}

/** The words only the account's screens use: downloaded with them (locales/*-account-words.ts). */
export type AccountWord =
  | 'account'
  | 'attempt'
  | 'cancel'
  | 'cancelAsk'
  | 'cancelYes'
  | 'cancelsOn'
  | 'currentPassword'
  | 'editAccount'
  | 'expiresOn'
  | 'failed'
  | 'firstInvoice'
  | 'invoiceColumns'
  | 'invoices'
  | 'keep'
  | 'logOut'
  | 'memberships'
  | 'menu'
  | 'newEmail'
  | 'noInvoices'
  | 'noMemberships'
  | 'paid'
  | 'paymentFailed'
  | 'picture'
  | 'refunded'
  | 'removePicture'
  | 'renewsOn'
  | 'movesTo'
  | 'signedInAs'
  | 'updateCard'
  | 'uploadPicture'
  | AccountFormWord;
export type AccountWords = Pick<Messages, AccountWord | 'errors'>;
/** The words only protected content's screen uses: downloaded with it (locales/*-content-words.ts). */
export type ContentWord = 'open' | 'downloading' | 'downloadAgain' | 'contentFor' | 'contentClosed' | 'noContent';
export type ContentWords = Pick<Messages, ContentWord>;
/** The words only logging in's screens and the mailed links' use: downloaded with them (locales/*-sign-in-words.ts). */
/** The account forms' titles, which the mailed links' screens (a reset, an e-mail change) read too: with both groups' words. */
export type AccountFormWord = 'changeEmail' | 'changePassword' | 'newPassword';
export type SignInWord = 'emailCode' | 'emailLink' | 'resetSent' | 'noAccount' | 'emailNow' | 'passwordSaved' | 'forgotPassword' | 'codeSent' | 'newCode' | 'sent' | AccountFormWord;
export type SignInWords = Pick<Messages, SignInWord | 'errors'>;
/** The words only the plans screen uses: downloaded with it (locales/*-plans-words.ts). */
export type PlansWord = 'noPlans' | 'yourPlan' | 'recommended' | 'billing' | 'monthly' | 'yearly';
export type PlansWords = Pick<Messages, PlansWord>;
/** The words only the saved card's screen uses: downloaded with it (locales/*-card-words.ts). */
export type CardWord = 'noCard' | 'saveCard' | 'payNow';
export type CardWords = Pick<Messages, CardWord>;
/** The words only changing plans uses: downloaded with its screen (locales/*-change-plan-words.ts). */
export type ChangePlanWord = 'changePlan' | 'changeFrom' | 'credit' | 'changesOn' | 'planNow' | 'planLater';
export type ChangePlanWords = Pick<Messages, ChangePlanWord>;
/** The words a modal bundle holds from the start. */
export type BaseWords = Omit<Messages, AccountWord | ContentWord | SignInWord | PlansWord | CardWord | ChangePlanWord>;

/** The words a bundle downloads with a group of screens, by group (the modal's entry gives them). */
export interface WordLoaders {
  account(): Promise<AccountWords>;
  content(): Promise<ContentWords>;
  signIn(): Promise<SignInWords>;
  plans(): Promise<PlansWords>;
  card(): Promise<CardWords>;
  changePlan(): Promise<ChangePlanWords>;
}
