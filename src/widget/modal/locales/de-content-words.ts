import type { ContentWords } from '../messages';

/** Protected content's words in German: a chunk of their own, downloaded with its screen (../screen-chunks.ts). */
export const deContent: ContentWords = {
  open: 'Öffnen',
  downloading: (name) => `Der Download von „${name}“ hat begonnen.`,
  downloadAgain: 'Erneut herunterladen',
  contentFor: (name) => `„${name}“ ist für Mitglieder dieser Tarife:`,
  contentClosed: (name) => `„${name}“ ist in keinem der buchbaren Tarife enthalten.`,
  noContent: 'Diesen Inhalt gibt es nicht.',
};
