/**
 * "Yes" and "No" by ISO 639-1 code: how a checkbox field reads as text (spec 4.1, "Prefilling
 * forms"). The service sends its site's pair in `GET /config`, so the table never weighs on
 * widgets.js. Other codes get English.
 */
const WORDS: Record<string, [yes: string, no: string]> = {
  en: ['Yes', 'No'], de: ['Ja', 'Nein'], fr: ['Oui', 'Non'], es: ['Sí', 'No'], it: ['Sì', 'No'], pt: ['Sim', 'Não'],
  nl: ['Ja', 'Nee'], sv: ['Ja', 'Nej'], da: ['Ja', 'Nej'], nb: ['Ja', 'Nei'], nn: ['Ja', 'Nei'], no: ['Ja', 'Nei'],
  fi: ['Kyllä', 'Ei'], is: ['Já', 'Nei'], et: ['Jah', 'Ei'], lv: ['Jā', 'Nē'], lt: ['Taip', 'Ne'], pl: ['Tak', 'Nie'],
  cs: ['Ano', 'Ne'], sk: ['Áno', 'Nie'], sl: ['Da', 'Ne'], hr: ['Da', 'Ne'], sr: ['Да', 'Не'], bs: ['Da', 'Ne'],
  ro: ['Da', 'Nu'], hu: ['Igen', 'Nem'], bg: ['Да', 'Не'], mk: ['Да', 'Не'], ru: ['Да', 'Нет'], uk: ['Так', 'Ні'],
  be: ['Так', 'Не'], el: ['Ναι', 'Όχι'], tr: ['Evet', 'Hayır'], he: ['כן', 'לא'], ar: ['نعم', 'لا'], fa: ['بله', 'خیر'],
  hi: ['हाँ', 'नहीं'], bn: ['হ্যাঁ', 'না'], id: ['Ya', 'Tidak'], ms: ['Ya', 'Tidak'], tl: ['Oo', 'Hindi'],
  vi: ['Có', 'Không'], th: ['ใช่', 'ไม่ใช่'], ja: ['はい', 'いいえ'], ko: ['예', '아니요'], zh: ['是', '否'],
  ca: ['Sí', 'No'], gl: ['Si', 'Non'], eu: ['Bai', 'Ez'], ga: ['Tá', 'Níl'], cy: ['Ie', 'Na'], sq: ['Po', 'Jo'],
  af: ['Ja', 'Nee'], sw: ['Ndiyo', 'Hapana'],
};

export function checkboxLabels(locale: string): { yes: string; no: string } {
  const [yes, no] = Object.hasOwn(WORDS, locale) ? WORDS[locale]! : WORDS.en!;
  return { yes, no };
}
