/**
 * The plain-text version: paragraphs wrapped at 78 characters (the old line limit many readers
 * still assume), while links and codes get lines of their own and are never wrapped, so they
 * can be clicked or copied whole.
 */
import type { MailParts } from './parts';

const WIDTH = 78;

export function renderText(parts: MailParts, site: string): string {
  const blocks: string[] = [parts.greeting, ...parts.intro.map(wrap)];
  if (parts.code) blocks.push(`${wrap(parts.code.label)}\n\n${parts.code.value}`);
  if (parts.facts) blocks.push(parts.facts.map(([label, value]) => `${label}: ${value}`).join('\n'));
  if (parts.action) blocks.push(`${wrap(parts.action.intro)}\n${parts.action.link}`);
  blocks.push(...parts.outro.map(wrap), site);
  return `${blocks.join('\n\n')}\n`;
}

/** Greedy word wrap; a word longer than a line (an address, say) keeps a line to itself. */
export function wrap(paragraph: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.join('\n');
}
