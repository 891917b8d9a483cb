/**
 * The screens that are chunks of their own (./chunks/, one module a chunk): a chunk is
 * downloaded the first time one of its screens is drawn, so a page downloads the modal's base
 * (the dialog and its router, the words) and the one chunk the screen asked for: logging in
 * (with a password or a mailed code), the account's menu, its memberships, its invoices, its
 * forms, the plans, joining (registration, a plan's sign-up), changing plans, the saved card,
 * protected content, or the mailed links. A chunk a screen, or a few that are drawn together: the account's screens
 * were one chunk until the largest of them met the budget; one each, a screen downloads only its
 * own. What they share and the base does not have are chunks rollup makes of their own. The
 * base stands for the screens by these wrappers, never by importing one: an import would pull
 * its chunk into the base (the budget of what one screen downloads, bench/size.ts;
 * docs/decisions/0034-modal-chunks.md).
 */
import type { ContentViewingPreference } from '../../contract/member';
import type { Screen, ScreenContext } from './screen';

/** A group's screens, and the group's own words when it has some (merged into `t` before one draws). */
export const withWords = <M>(ctx: ScreenContext, screens: Promise<M>, words?: Promise<Partial<ScreenContext['t']>>) =>
  // A group's error messages join the base's (logging in's, the account's), not replace them.
  Promise.all([screens, words]).then(([m, w]) => (Object.assign(ctx.t, w, { errors: { ...ctx.t.errors, ...w?.errors } }), m));
// A loader a chunk: `withWords(ctx, import('./chunks/<chunk>'), ctx.words?.<words>())` as written
// here is how scripts/lib/modal-chunks.ts learns which chunks download which words.
const signIn = (ctx: ScreenContext) => withWords(ctx, import('./chunks/sign-in'), ctx.words?.signIn());
const account = (ctx: ScreenContext) => withWords(ctx, import('./chunks/account'), ctx.words?.account());
const memberships = (ctx: ScreenContext) => withWords(ctx, import('./chunks/memberships'), ctx.words?.account());
const invoices = (ctx: ScreenContext) => withWords(ctx, import('./chunks/invoices'), ctx.words?.account());
const accountForms = (ctx: ScreenContext) => withWords(ctx, import('./chunks/account-forms'), ctx.words?.account());
const plans = (ctx: ScreenContext) => withWords(ctx, import('./chunks/plans'), ctx.words?.plans());
const savedCard = (ctx: ScreenContext) => withWords(ctx, import('./chunks/saved-card'), ctx.words?.card());
const join = () => import('./chunks/join');
const changePlan = (ctx: ScreenContext) => withWords(ctx, import('./chunks/change-plan'), ctx.words?.changePlan());
// The mailed links' screens read logging in's words (a reset link's form, a code's).
const links = (ctx: ScreenContext) => withWords(ctx, import('./chunks/links'), ctx.words?.signIn());
const content = (ctx: ScreenContext) => withWords(ctx, import('./chunks/content'), ctx.words?.content());

// Logging in.
export const loginScreen = (next?: Screen): Screen => (ctx) => signIn(ctx).then((m) => m.loginScreen(next)(ctx));
export const askCodeScreen = (email?: string, next?: Screen): Screen => (ctx) => signIn(ctx).then((m) => m.askCodeScreen(email, next)(ctx));
export const forgotPasswordScreen = (email?: string): Screen => (ctx) => signIn(ctx).then((m) => m.forgotPasswordScreen(email)(ctx));

// The account.
export const accountScreen: Screen = (ctx) => account(ctx).then((m) => m.accountScreen(ctx));
export const memberMenuScreen: Screen = (ctx) => account(ctx).then((m) => m.memberMenuScreen(ctx));
export const membershipsScreen: Screen = (ctx) => memberships(ctx).then((m) => m.membershipsScreen(ctx));
export const invoicesScreen: Screen = (ctx) => invoices(ctx).then((m) => m.invoicesScreen(ctx));
export const accountEditScreen: Screen = (ctx) => accountForms(ctx).then((m) => m.accountEditScreen(ctx));
export const emailChangeScreen: Screen = (ctx) => accountForms(ctx).then((m) => m.emailChangeScreen(ctx));
export const passwordChangeScreen: Screen = (ctx) => accountForms(ctx).then((m) => m.passwordChangeScreen(ctx));

// Joining.
export const plansScreen = (ctx: ScreenContext, none?: () => void): Promise<void> => plans(ctx).then((m) => m.plansScreen(ctx, none));
/** Signing up to a plan: joining's screen, or "Change plan" for a member holding a running subscription (decision 0036), whose chunk leaves joining's out. */
export const planSignupScreen = (publicId: string): Screen => (ctx) => {
  // The plan held itself is no change (409 there): joining's screen then opens its content.
  const held = ctx.host.member()?.memberships.find((m) => m.status === 'active' && m.type === 'subscription');
  return held ? changePlan(ctx).then((m) => m.changePlanScreen(publicId, held)(ctx)) : signUpScreen(publicId)(ctx);
};
/** Joining's screen for the plan, whatever the member holds: where the rules refuse a change of plan. */
export const signUpScreen = (publicId: string): Screen => (ctx) => join().then((m) => m.planSignupScreen(publicId)(ctx));
export const registerScreen = (next?: Screen, plan?: string): Screen => (ctx) => join().then((m) => m.registerScreen(next, plan)(ctx));

// The saved card.
export const paymentMethodScreen: Screen = (ctx) => savedCard(ctx).then((m) => m.paymentMethodScreen(ctx));

// Protected content.
export const contentScreen = (contentId: string, preference?: ContentViewingPreference): Screen => (ctx) =>
  content(ctx).then((m) => m.contentScreen(contentId, preference)(ctx));

// The mailed links.
export const signInLinkScreen = (token: string): Screen => (ctx) => links(ctx).then((m) => m.signInLinkScreen(token)(ctx));
export const passwordResetScreen = (token: string): Screen => (ctx) => links(ctx).then((m) => m.passwordResetScreen(token)(ctx));
export const emailConfirmScreen = (token: string): Screen => (ctx) => links(ctx).then((m) => m.emailConfirmScreen(token)(ctx));
