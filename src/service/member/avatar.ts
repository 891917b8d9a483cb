/**
 * The profile image of a member who has none: their initials on a coloured disc, as a data
 * URL. Self-contained (no endpoint that would let anyone enumerate members' initials), and
 * only letters and digits reach the SVG, so nothing a member typed can become markup.
 */
const COLOURS = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2'];

export function initialsAvatar(name: string): string {
  const words = name.split(/[\s@._-]+/).filter(Boolean);
  const initials = words
    .slice(0, 2)
    .map((w) => [...w].find((ch) => /[\p{L}\p{N}]/u.test(ch)) ?? '')
    .join('')
    .toUpperCase();
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  const colour = COLOURS[hash % COLOURS.length];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="${colour}"/>` +
    `<text x="32" y="41" font-family="sans-serif" font-size="26" fill="#fff" text-anchor="middle">${initials || '?'}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
