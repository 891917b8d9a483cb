/**
 * The screens' helpers nearly every chunk of screens uses (a form, the links between screens,
 * the sign-up questions, money and dates), made part of the modal's entry file by exporting them
 * from it (index.ts, index.de.ts): rollup puts what an entry exports in the entry's own file,
 * and the chunks import them from there. As a chunk of their own beside the entry, every screen
 * downloaded them as a second file compressed from nothing (~300 B more a screen, decision 0034).
 */
export * from './screens/form';
export * from './screens/menu-links';
export * from './screens/custom-fields';
export * from './format';
export * from './rich-text';
export * from './screens/card-payment';
