/** What every store's eraseMember (issue 32) works out the same way. */

/** The addresses mail to the member went to: the present one and those `emailChanged` details name (OWNER.formerEmails rows). */
export function mailedAddresses(email: string, formerDetails: readonly unknown[]): string[] {
  const addresses = new Set([email]);
  for (const text of formerDetails) {
    const details = (typeof text === 'string' ? JSON.parse(text) : text) as { from?: unknown; to?: unknown };
    for (const address of [details.from, details.to]) if (typeof address === 'string') addresses.add(address);
  }
  return [...addresses];
}

/** The address an erased member keeps: unique per member, and no one's (`.invalid` is reserved, RFC 2606). */
export const erasedEmail = (memberId: number): string => `erased-${memberId}@erased.invalid`;
