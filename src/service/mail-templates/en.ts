/** The mails in English: plain words, "you", one thing to do per mail. */
import { toDuration } from './duration';
import type { Words } from './parts';

function duration(minutes: number): string {
  const { count, unit } = toDuration(minutes);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

const NOT_YOU = "If this wasn't you, ignore this e-mail.";

export const en: Words = {
  lang: 'en',
  linkHint: "If the button doesn't work, copy this address into your browser:",
  kinds: {
    passwordReset: (site, { link, minutes }) => ({
      subject: `Reset your password for ${site}`,
      greeting: 'Hello,',
      intro: [`Someone asked to reset the password of your account on ${site}.`],
      action: { intro: 'To choose a new password, follow this link:', button: 'Reset password', link },
      outro: [
        `The link works for ${duration(minutes)}, and only once.`,
        "If this wasn't you, ignore this e-mail: your password stays as it is.",
      ],
    }),
    signInCode: (site, { code, link, minutes }) => ({
      subject: `Your code to log in to ${site}`,
      greeting: 'Hello,',
      intro: [],
      code: { label: `Your code to log in to ${site}:`, value: code },
      action: { intro: 'Or follow this link to log in:', button: `Log in to ${site}`, link },
      outro: [`The code and the link work for ${duration(minutes)}.`, "If you didn't ask to log in, ignore this e-mail."],
    }),
    welcome: (site, { firstName, code, link, minutes }) => ({
      subject: `Welcome to ${site}: please confirm your e-mail address`,
      greeting: firstName ? `Hello ${firstName},` : 'Hello,',
      intro: [`Welcome to ${site}, and thank you for creating an account.`],
      code: { label: 'Please confirm your e-mail address with this code:', value: code },
      action: { intro: 'Or follow this link:', button: 'Confirm e-mail address', link },
      outro: [`The code and the link work for ${duration(minutes)}.`, "If you didn't create this account, ignore this e-mail."],
    }),
    confirmEmail: (site, { code, link, minutes }) => ({
      subject: `Confirm your e-mail address for ${site}`,
      greeting: 'Hello,',
      intro: [],
      code: { label: `To confirm your e-mail address for ${site}, enter this code:`, value: code },
      action: { intro: 'Or follow this link:', button: 'Confirm e-mail address', link },
      outro: [`The code and the link work for ${duration(minutes)}.`, "If you didn't ask for this, ignore this e-mail."],
    }),
    accountExists: (site, { code, link, minutes }) => ({
      subject: `You already have an account on ${site}`,
      greeting: 'Hello,',
      intro: [
        `Someone, maybe you, tried to create an account on ${site} with this e-mail address. ` +
          'There is already an account with this address.',
      ],
      code: { label: `Your code to log in to ${site}:`, value: code },
      action: { intro: 'Or follow this link to log in:', button: `Log in to ${site}`, link },
      outro: [
        `The code and the link work for ${duration(minutes)}. You can also log in with your password, ` +
          'or choose "Forgot password?" when you log in.',
        `${NOT_YOU} Nothing has changed.`,
      ],
    }),
    emailChange: (site, { newEmail, code, link, minutes }) => ({
      subject: `Confirm your new e-mail address for ${site}`,
      greeting: 'Hello,',
      intro: [`Please confirm that ${newEmail} is the new e-mail address of your account on ${site}.`],
      code: { label: 'Enter this code:', value: code },
      action: { intro: 'Or follow this link:', button: 'Confirm new address', link },
      outro: [
        `The code and the link work for ${duration(minutes)}.`,
        "If you didn't ask for this, ignore this e-mail: nothing changes.",
      ],
    }),
    emailInUse: (site) => ({
      subject: `This address already has an account on ${site}`,
      greeting: 'Hello,',
      intro: [
        `Someone tried to change the e-mail address of another account on ${site} to this address. ` +
          'This address already has an account, so nothing was changed.',
      ],
      outro: ["If you don't recognise this, ignore this e-mail."],
    }),
    emailChanged: (site, { newEmail }) => ({
      subject: `Your e-mail address on ${site} has changed`,
      greeting: 'Hello,',
      intro: [`The e-mail address of your account on ${site} is now ${newEmail}.`],
      outro: ['From now on, log in with the new address.', `If you didn't do this, contact ${site} right away.`],
    }),
    receipt: (site, { planName, amount, date, description, link }) => ({
      subject: `Your receipt from ${site}`,
      greeting: 'Hello,',
      intro: [`Thank you for your payment to ${site}.`],
      facts: [
        ['Plan', planName],
        ['Amount', amount],
        ['Date', date],
        ['For', description],
      ],
      action: { intro: 'All your invoices are in your account:', button: 'See your invoices', link },
      outro: [],
    }),
    paymentFailed: (site, { planName, amount, link, bankAsks }) => ({
      subject: `Your payment for ${planName} on ${site} failed`,
      greeting: 'Hello,',
      intro: [`We could not charge ${amount} to renew your ${planName} membership on ${site}.`],
      action: bankAsks
        ? { intro: 'Your bank asks you to confirm the payment. Confirm it with this link:', button: 'Confirm the payment', link }
        : { intro: 'Please update your card with this link:', button: 'Update your card', link },
      outro: ["We'll try the payment again."],
    }),
    endingSoon: (site, { planName, endsOn, link }) => ({
      subject: `Your ${planName} membership on ${site} ends on ${endsOn}`,
      greeting: 'Hello,',
      intro: [`Your ${planName} membership on ${site} ends on ${endsOn}.`],
      action: { intro: 'To keep your access, choose a plan in your account:', button: 'See the plans', link },
      outro: [],
    }),
  },
};
