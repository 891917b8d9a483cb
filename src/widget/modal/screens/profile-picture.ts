import type { MemberInfo } from '../../../contract/member';
import { errorText, type ScreenContext } from '../screen';
import { el, input, labelled, showErrors } from '../ui';
import { actionForm } from './form';

/** A picture the member uploaded: the service sends its URL; without one, their initials as a `data:` URL. */
export const pictureOf = (member: MemberInfo): string | undefined => (member.profileImageUrl.startsWith('data:') ? undefined : member.profileImageUrl);

/** After a change: the member asked for again (the page's `profileImageUrl` elements follow), the account under "Saved.". */
const saved = async (ctx: ScreenContext) => {
  await ctx.host.refresh();
  ctx.notice = ctx.t.saved;
  ctx.show(ctx.screens.account);
};

/**
 * The member's picture (PUT and DELETE /me/picture, decision 0039): a file to upload, and the one
 * they have (shown in the header above) to remove. The service reads the file's bytes and says
 * in words what it refuses, shown above the button.
 */
export function pictureForm(ctx: ScreenContext, member: MemberInfo): HTMLFormElement {
  const { doc, t } = ctx;
  const file = input(doc, 'profileImage', 'file', { accept: 'image/jpeg,image/png,image/webp' });
  const form = actionForm(ctx, t.uploadPicture, [labelled(doc, t.picture, file)], async () => {
    const picked = file.files?.[0];
    if (!picked) throw { code: 'invalidField', path: 'profileImage', message: t.required };
    // Its bytes, with the type the browser gives it (none for an extension it does not know): the service reads what they are.
    await ctx.host.call('PUT', '/me/picture', picked);
    await saved(ctx);
  });
  form.classList.add('pic');
  if (pictureOf(member)) {
    const remove = el(doc, 'button', { type: 'button', class: 'link' }, t.removePicture);
    remove.addEventListener('click', () => {
      remove.disabled = true;
      showErrors(form, []);
      ctx.host.call('DELETE', '/me/picture').then(
        () => saved(ctx),
        (error: unknown) => {
          remove.disabled = false;
          showErrors(form, [errorText(t, error)]);
        },
      );
    });
    form.append(remove);
  }
  return form;
}
