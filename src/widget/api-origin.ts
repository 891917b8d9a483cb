/** The http(s) origin a configuration's `apiOrigin` names (`https://members.example.com`); null for anything else. */
export function httpOrigin(text: unknown): string | null {
  try {
    const { origin } = new URL(String(text));
    return origin.startsWith('http') ? origin : null;
  } catch {
    return null;
  }
}
