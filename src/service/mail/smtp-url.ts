/**
 * SVC_SMTP_URL read and checked: `smtp://user:pass@host:port` (STARTTLS when the server offers
 * it) or `smtps://…` (TLS from the start). Problems are said without the password.
 */

export interface SmtpServer {
  host: string;
  port: number;
  /** smtps: TLS from the first byte. */
  secure: boolean;
  auth?: { user: string; pass: string };
}

/** Ports when the URL names none: submission with STARTTLS, and submission over TLS. */
export const DEFAULT_SMTP_PORT = 587;
export const DEFAULT_SMTPS_PORT = 465;

const EXPECTED = 'smtp://user:pass@host:port or smtps://user:pass@host:port';

/** The server `text` names, or why it names none (a phrase after "SVC_SMTP_URL "). */
export function parseSmtpUrl(text: string): SmtpServer | { problem: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `is not a URL (expected ${EXPECTED})` };
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    return { problem: `must start with smtp:// or smtps://, not ${url.protocol}//` };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return { problem: `names no host (expected ${EXPECTED})` };
  if (url.port === '0') return { problem: 'names port 0' };
  if (url.pathname !== '' && url.pathname !== '/') return { problem: 'must not have a path after host:port' };
  if (url.search || url.hash) return { problem: 'must not have ?options or a #fragment' };
  const secure = url.protocol === 'smtps:';
  const server: SmtpServer = { host, port: url.port ? Number(url.port) : secure ? DEFAULT_SMTPS_PORT : DEFAULT_SMTP_PORT, secure };
  if (!url.username && !url.password) return server;
  if (!url.username || !url.password) return { problem: 'needs both a user name and a password, or neither' };
  const user = decode(url.username);
  const pass = decode(url.password);
  if (user === undefined) return { problem: 'has a user name that is not valid percent-encoding' };
  if (pass === undefined) return { problem: 'has a password that is not valid percent-encoding (write @ as %40, : as %3A, / as %2F)' };
  return { ...server, auth: { user, pass } };
}

/** The server as it may be shown: no password, ever. */
export function describeSmtpServer({ host, port, secure, auth }: SmtpServer): string {
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return `${secure ? 'smtps' : 'smtp'}://${auth ? `${encodeURIComponent(auth.user)}@` : ''}${shownHost}:${port}`;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
