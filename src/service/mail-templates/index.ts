/**
 * Mail templates (issue 15): the words of every mail the service sends, in English and German,
 * as a subject, plain text and simple HTML. Pure and portable: no Node imports, so the mock
 * server bundled for the browser composes the same mails.
 */
export { composeMail } from './compose';

export type { MailContent, MailKind, MailSite, MailTemplate } from './types';
