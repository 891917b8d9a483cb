/** One mailbox as a person writes it in a setting: `Name <addr@host>` or `addr@host`. */
import addressparser from 'nodemailer/lib/addressparser';
import type { MailAddress } from './message';

/** A dot-atom local part, `@`, and a host name of letters, digits and hyphens (Unicode allowed in both). */
const ATOM = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
const ADDR_SPEC = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})*$`, 'u');
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** The mailbox `text` names, or why it names none (a phrase to follow "must be …, but it"). */
export function parseMailbox(text: string): MailAddress | { problem: string } {
  const written = text.trim();
  if (CONTROL.test(written)) return { problem: 'holds a line break or another control character' };
  const parsed = addressparser(written);
  const [first] = parsed;
  if (parsed.length !== 1 || !first || first.group) return { problem: 'names no address, or more than one' };
  const { address, name } = first;
  if (!ADDR_SPEC.test(address)) return { problem: `has no valid addr@host (found "${address}")` };
  // addressparser forgives much (`Foo Bar a@b.c`); a setting should say what it means.
  const bare = written === address || written === `<${address}>`;
  if (!bare && !written.endsWith(`<${address}>`)) return { problem: 'puts the address outside <…> after a name' };
  return name ? { name, address } : { address };
}
