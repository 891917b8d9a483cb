/**
 * The site file's `payments:` (issue 28, decision 0033): the built-in test processor (the
 * default; it moves no money), or the owner's own Stripe account. The file names Stripe's
 * publishable key, which is public (Stripe.js runs with it in every member's browser), and the
 * environment variables that hold the secret key and the webhook's signing secret: the secrets
 * themselves are never in the file, in `export`, in the database or in a log.
 */
import { z } from 'zod';
import { described } from './described';

/** A variable's name as a shell writes it: `STRIPE_SECRET_KEY`. */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'the name of an environment variable: letters, digits and _, not starting with a digit');

/** `pk_test_…` or `pk_live_…`: Stripe's publishable keys. A secret key here would publish it. */
const publishableKey = z.string().superRefine((key, ctx) => {
  if (/^(sk|rk)_/.test(key)) {
    ctx.addIssue({ code: 'custom', message: 'this is a secret key: it must never be in the site file; put it in an environment variable and name that in secretKeyEnv' });
  } else if (!/^pk_(test|live)_[A-Za-z0-9_]{8,200}$/.test(key)) {
    ctx.addIssue({ code: 'custom', message: "Stripe's publishable key: pk_test_… or pk_live_… (Stripe's dashboard, Developers → API keys)" });
  }
});

export const paymentsSchema = z.discriminatedUnion('processor', [
  z.strictObject({ processor: z.literal('test') }),
  z.strictObject({
    processor: z.literal('stripe'),
    publishableKey: described(publishableKey, "Stripe's publishable key (pk_test_… or pk_live_…), the one Stripe.js runs with in members' browsers."),
    secretKeyEnv: described(envName, "The environment variable that holds Stripe's secret key (sk_…); never the key itself."),
    webhookSecretEnv: described(envName, "The environment variable that holds the signing secret (whsec_…) of the site's webhook endpoint in Stripe."),
  }),
]);

export type PaymentsSettings = z.output<typeof paymentsSchema>;

/** Whether a key is a test-mode key (`pk_test_`, `sk_test_`, `rk_test_`) or a live one. */
export const keyMode = (key: string): 'test' | 'live' | undefined => (/^(pk|sk|rk)_test_/.test(key) ? 'test' : /^(pk|sk|rk)_live_/.test(key) ? 'live' : undefined);
