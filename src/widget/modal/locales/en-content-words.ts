import type { ContentWords } from '../messages';

/** Protected content's words in English: a chunk of their own, downloaded with its screen (../screen-chunks.ts). */
export const enContent: ContentWords = {
  open: 'Open',
  downloading: (name) => `Your download of “${name}” has started.`,
  downloadAgain: 'Download again',
  contentFor: (name) => `“${name}” is for members of these plans:`,
  contentClosed: (name) => `“${name}” is in none of the plans open to sign-up.`,
  noContent: 'This content does not exist.',
};
