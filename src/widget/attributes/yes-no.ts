/**
 * "Yes" and "No" by ISO 639-1 code, for checkbox fields shown as text (spec 4.1). One string
 * rather than an object: it is the smallest form in the bundle. Other codes get English.
 */
const WORDS =
  'en:Yes/No|de:Ja/Nein|fr:Oui/Non|es:Sí/No|it:Sì/No|pt:Sim/Não|nl:Ja/Nee|sv:Ja/Nej|da:Ja/Nej|nb:Ja/Nei|no:Ja/Nei|' +
  'fi:Kyllä/Ei|is:Já/Nei|et:Jah/Ei|lv:Jā/Nē|lt:Taip/Ne|pl:Tak/Nie|cs:Ano/Ne|sk:Áno/Nie|sl:Da/Ne|hr:Da/Ne|ro:Da/Nu|' +
  'hu:Igen/Nem|bg:Да/Не|ru:Да/Нет|uk:Так/Ні|el:Ναι/Όχι|tr:Evet/Hayır|he:כן/לא|ar:نعم/لا|hi:हाँ/नहीं|id:Ya/Tidak|' +
  'ms:Ya/Tidak|vi:Có/Không|th:ใช่/ไม่ใช่|ja:はい/いいえ|ko:예/아니요|zh:是/否|ca:Sí/No';

export function yesNo(locale: string, value: boolean): string {
  const entries = WORDS.split('|');
  const entry = entries.find((candidate) => candidate.startsWith(`${locale.toLowerCase()}:`)) ?? entries[0]!;
  return entry.slice(3).split('/')[value ? 0 : 1]!;
}
