/**
 * The screens' helpers nearly every chunk of screens uses (a form, the links between screens,
 * the sign-up questions, money and dates), made part of the modal's entry file by exporting them
 * from it (index.ts, index.de.ts): rollup puts what an entry exports in the entry's own file,
 * and the chunks import them from there. As a chunk of their own beside the entry, every screen
 * downloaded them as a second file compressed from nothing (~300 B more a screen, decision 0034).
 *
 * Under short names: what an entry exports keeps its name, which every chunk's import line and
 * the entry's export list spell out (`actionForm as Q`); `z0`… cost 86 B less a screen than the
 * helpers' own names. Nothing reads these names but the chunks rollup writes: a screen imports
 * `actionForm` from './screens/form' as always. A helper left out of this list still works
 * (rollup exports it from the entry under a name of its own, its module being in the entry);
 * a new module of helpers must be named here, or it becomes a chunk of its own.
 */
export { actionForm as z0, valueOf as z1, passwordField as z2 } from './screens/form';
export { planChoice as z5, seePlans as z6, screenButton as z7, haveAccount as z8 } from './screens/menu-links';
export { customField as z9, readCustom as z10 } from './screens/custom-fields';
export { money as z11, brandName as z12, date as z13, perInterval as z14, price as z15, percent as z16, terms as z17 } from './format';
export { richText as z18 } from './rich-text';
export { cardPayment as z19 } from './screens/card-payment';
