/** Members made through the member API itself, as a sign-up from one of the site's pages. */
import type { SessionResponse, SignUpRequest } from '../../../src/contract/member';
import { SUBDOMAIN } from './service';

export interface TestMember {
  email: string;
  password: string;
  session: SessionResponse;
}

let made = 0;

/** A unique e-mail on each call, so tests never collide on one database. */
export function uniqueEmail(label = 'member'): string {
  return `${label}-${process.pid}-${Date.now().toString(36)}-${++made}@buyer.example`;
}

/** POST /member/v1/sites/shop/members with the `Origin` of a page of the site. */
export async function createMember(serviceUrl: string, origin: string, details: Partial<SignUpRequest> = {}): Promise<TestMember> {
  const body = { email: uniqueEmail(), password: 'correct horse battery', firstName: 'Ada', lastName: 'Shopper', ...details } satisfies SignUpRequest;
  const response = await fetch(`${serviceUrl}/member/v1/sites/${SUBDOMAIN}/members`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  return { email: body.email, password: body.password, session: (await response.json()) as SessionResponse };
}
