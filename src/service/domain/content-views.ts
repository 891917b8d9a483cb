/** How protected content can be shown (spec 4.1, "Protected content": "some content types support only one"). */
import type { ContentNodeType } from '../../contract/admin';
import type { ContentViewingPreference } from '../../contract/member';

/**
 * How each type can be shown, the default first. `download`: the browser fetches the item (a
 * file is saved, a recording or a link opens); `popup`: the widget's dialog shows it. An article
 * has nothing to download and a file nothing to show, so each has one.
 */
export const CONTENT_VIEWS_BY_TYPE: Record<ContentNodeType, readonly ContentViewingPreference[]> = {
  article: ['popup'],
  video: ['download', 'popup'],
  audio: ['download', 'popup'],
  file: ['download'],
  link: ['download', 'popup'],
};

/** The view used: the one asked for (`download` when none) if the type has it, else the type's only one. */
export function contentViewFor(type: ContentNodeType, asked: ContentViewingPreference | undefined): ContentViewingPreference {
  const views = CONTENT_VIEWS_BY_TYPE[type];
  const wanted = asked ?? 'download';
  return views.includes(wanted) ? wanted : views[0]!;
}
