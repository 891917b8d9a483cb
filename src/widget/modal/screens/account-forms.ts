import type { MailSentResponse, MemberInfo, SignupFieldValue } from '../../../contract/member';
import { forMember, render, type Screen, type ScreenContext } from '../screen';
import { withWords } from '../screen-chunks';
import { el, input, labelled } from '../ui';
import { customField, readCustom } from './custom-fields';
import { actionForm, passwordField, valueOf } from './form';

/** After a change: the account screen, which shows it, under "Saved.". */
const done = async (ctx: ScreenContext, refresh = true) => {
  if (refresh) await ctx.host.refresh();
  ctx.notice = ctx.t.saved;
  ctx.show(ctx.screens.account);
};

/** Names and custom fields (PATCH /me); an emptied optional field is cleared. */
export const accountEditScreen: Screen = forMember((ctx, member) => {
  const { doc, t, config } = ctx;
  const current = new Map(member.customSignupFields.map((f) => [f.id, f.value]));
  const form = actionForm(
    ctx,
    t.save,
    [
      labelled(doc, t.firstName, input(doc, 'firstName', 'text', { autocomplete: 'given-name', value: member.firstName })),
      labelled(doc, t.lastName, input(doc, 'lastName', 'text', { autocomplete: 'family-name', value: member.lastName })),
      ...config.signupFields.map((field) => customField(ctx, field, current.get(field.id))),
    ],
    async (f) => {
      const customFields: Record<string, SignupFieldValue> = {};
      for (const field of config.signupFields) customFields[field.id] = readCustom(f, field) ?? '';
      await ctx.host.call('PATCH', '/me', { firstName: valueOf(f, 'firstName'), lastName: valueOf(f, 'lastName'), customFields });
      await done(ctx);
    },
  );
  render(ctx, t.editAccount, form);
});

/**
 * PUT /me/email, with the current password. The new address takes effect once confirmed: the
 * code mailed to it here, or the link in that mail (mail-links.ts). Didn't get it? Back, and
 * change it again.
 */
export const emailChangeScreen: Screen = forMember((ctx, member) => {
  const { doc, t } = ctx;
  const form = actionForm(
    ctx,
    t.save,
    [
      labelled(doc, t.newEmail, input(doc, 'email', 'email', { autocomplete: 'email', required: '', value: member.email })),
      passwordField(ctx, t.currentPassword, 'password'),
    ],
    async (f) => {
      const answer = await ctx.host.call<MailSentResponse | MemberInfo>('PUT', '/me/email', { email: valueOf(f, 'email'), password: valueOf(f, 'password'), returnTo: location.href });
      // The same address as now is no change: nothing to confirm.
      if ('mailSent' in answer) ctx.show(emailCodeScreen(answer.email), emailChangeScreen);
      else await done(ctx);
    },
  );
  render(ctx, t.changeEmail, form);
});

/**
 * The code mailed to the new address (POST /me/email/confirm); then the account, which shows it.
 * The code's field is logging in's (a chunk the account's screens download only when it is needed).
 */
const emailCodeScreen = (email: string): Screen =>
  forMember(async (ctx) => {
    const { doc, t } = ctx;
    // The code's field and its error messages (logging in's words).
    const { codeField, codeOf } = await withWords(ctx, import('./code'), ctx.words?.signIn());
    const form = actionForm(ctx, t.save, [codeField(ctx)], async (f) => {
      await ctx.host.call('POST', '/me/email/confirm', { code: codeOf(f) });
      await done(ctx);
    });
    render(ctx, t.checkInbox, el(doc, 'p', {}, t.confirmEmail(email)), form);
  });

/** PUT /me/password: the member's other sessions are signed out by the service. */
export const passwordChangeScreen: Screen = forMember((ctx) => {
  const { t } = ctx;
  const form = actionForm(
    ctx,
    t.save,
    [
      passwordField(ctx, t.currentPassword, 'password'),
      passwordField(ctx, t.newPassword, 'newPassword', true),
    ],
    async (f) => {
      await ctx.host.call('PUT', '/me/password', { password: valueOf(f, 'password'), newPassword: valueOf(f, 'newPassword') });
      await done(ctx, false);
    },
  );
  render(ctx, t.changePassword, form);
});
