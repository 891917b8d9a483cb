import type { ContentWords } from '../messages';

/** Protected content's words in German: a chunk of their own, downloaded with its screen (../screen-chunks.ts). */
export const deContent: ContentWords = {
  open: 'Öffnen',
  downloading: (name) => `Der Download von „${name}“ hat begonnen.`,
  downloadAgain: 'Erneut herunterladen',
  contentFor: 'Dieser Inhalt ist für Mitglieder dieser Tarife:',
  contentClosed: 'Keiner der buchbaren Tarife enthält diesen Inhalt.',
  noContent: 'Diesen Inhalt gibt es nicht.',
};
