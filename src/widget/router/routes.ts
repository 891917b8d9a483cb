import { MAIL_TOKEN_SHAPE } from '../../contract/member';

/**
 * The `svcopen` paths of spec 4.1 and of mailed links, as a table: `:name` is a placeholder, a
 * trailing `?` makes it optional. Order matters where two rows could match: `plans/all` before
 * `plans/:planPublicId?`.
 */
export const ROUTES = {
  signIn: '/member/sign_in',
  // Where mailed links lead (their `svcopen`), and the two ways in without a password.
  signInLink: '/member/sign_in/:token',
  signInCode: '/member/sign_in_code',
  forgotPassword: '/member/forgot_password',
  passwordReset: '/member/reset_password/:token',
  emailConfirm: '/member/account/email_confirm/:token',
  signOut: '/member/sign_out',
  signUp: '/member/sign_up/:planPublicId?',
  allPlans: '/member/plans/all',
  planSignUp: '/member/plans/:planPublicId?',
  account: '/member/account',
  accountEdit: '/member/account/edit',
  emailChange: '/member/account/email_change',
  passwordChange: '/member/account/password_change',
  invoices: '/member/invoices',
  paymentMethod: '/member/payment_method/update',
  memberships: '/member/memberships',
  content: '/content/:contentId/:viewingPreference?',
} as const;

export type RouteName = keyof typeof ROUTES;

export interface Route {
  name: RouteName;
  /** The placeholders given, decoded; optional ones left out are absent. */
  params: Record<string, string>;
}

/** What each placeholder may hold; anything else is not that route. */
const PARAM_RULES: Record<string, RegExp> = {
  // A plan's public id or its key in the site file; an item's id or its key.
  planPublicId: /^[\w.-]{1,64}$/,
  contentId: /^[\w.-]{1,64}$/,
  viewingPreference: /^(download|popup)$/,
  token: MAIL_TOKEN_SHAPE,
};

/** The route a `svcopen` value names, or null. A trailing slash is allowed. */
export function matchRoute(path: string): Route | null {
  const parts = path.replace(/\/$/, '').split('/');
  for (const name of Object.keys(ROUTES) as RouteName[]) {
    const params = matchPattern(ROUTES[name].split('/'), parts);
    if (params) return { name, params };
  }
  return null;
}

function matchPattern(pattern: string[], parts: string[]): Record<string, string> | null {
  if (parts.length > pattern.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i]!;
    const part = parts[i];
    if (!segment.startsWith(':')) {
      if (part !== segment) return null;
      continue;
    }
    const optional = segment.endsWith('?');
    const key = segment.slice(1, optional ? -1 : undefined);
    if (part === undefined) {
      if (optional) continue;
      return null;
    }
    let value: string;
    try {
      value = decodeURIComponent(part);
    } catch {
      return null;
    }
    if (!PARAM_RULES[key]!.test(value)) return null;
    params[key] = value;
  }
  return params;
}
