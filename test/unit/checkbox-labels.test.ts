/** How a checkbox field reads as text in a site's language (GET /config `checkboxLabels`). */
import { expect, test } from 'vitest';
import { checkboxLabels } from '../../src/service/domain/yes-no';

test('English, German, French and a few scripts other than Latin', () => {
  expect(checkboxLabels('en')).toEqual({ yes: 'Yes', no: 'No' });
  expect(checkboxLabels('de')).toEqual({ yes: 'Ja', no: 'Nein' });
  expect(checkboxLabels('fr')).toEqual({ yes: 'Oui', no: 'Non' });
  expect([checkboxLabels('ja').yes, checkboxLabels('ru').no, checkboxLabels('nl').no]).toEqual(['はい', 'Нет', 'Nee']);
});

test('a language the table does not have, and names that are not languages, read English', () => {
  for (const code of ['xx', '', 'e', 'eng', 'constructor', '__proto__', 'toString']) {
    expect(checkboxLabels(code), code).toEqual({ yes: 'Yes', no: 'No' });
  }
});
