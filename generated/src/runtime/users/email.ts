/**
 * Sending mail for the password and confirmation flows, through a provider as Strapi's email
 * plugin does. The default provider writes each message to the log, so the flows work (and a
 * developer can follow the links) with no mail server; `smtp` sends through nodemailer.
 *
 * config/plugins.json: "email": { "config": { "provider": "log" | "smtp",
 *   "providerOptions": { host, port, secure, auth: { user, pass } },
 *   "settings": { "defaultFrom": "...", "defaultReplyTo": "..." } } }
 */
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';

export interface EmailMessage {
  readonly to: string;
  readonly from?: string;
  readonly replyTo?: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface EmailProvider {
  send(message: EmailMessage): Promise<void>;
}

export interface SmtpOptions {
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  readonly auth?: { readonly user: string; readonly pass: string };
}

export type EmailConfig =
  | { readonly provider: 'log'; readonly defaultFrom: string | null; readonly defaultReplyTo: string | null }
  | { readonly provider: 'smtp'; readonly smtp: SmtpOptions; readonly defaultFrom: string | null; readonly defaultReplyTo: string | null };

export const defaultEmailConfig: EmailConfig = { provider: 'log', defaultFrom: null, defaultReplyTo: null };

export function emailProvider(config: EmailConfig, logger: Logger): EmailProvider {
  const withDefaults = (message: EmailMessage): EmailMessage => {
    const from = message.from ?? config.defaultFrom ?? undefined;
    const replyTo = message.replyTo ?? config.defaultReplyTo ?? undefined;
    return { ...message, ...(from === undefined ? {} : { from }), ...(replyTo === undefined ? {} : { replyTo }) };
  };
  if (config.provider === 'log') {
    return {
      send: async (message) => {
        const { to, from, subject, text } = withDefaults(message);
        logger.info({ email: { to, from, subject, text } }, `email to ${to}: ${subject}`);
      },
    };
  }
  const transport = nodemailer.createTransport({
    host: config.smtp.host,
    port: config.smtp.port,
    secure: config.smtp.secure,
    ...(config.smtp.auth === undefined ? {} : { auth: { ...config.smtp.auth } }),
  });
  return {
    send: async (message) => {
      await transport.sendMail(withDefaults(message));
    },
  };
}

/** Strapi's `<%= NAME %>` placeholders (and `<%= USER.username %>`), filled with the values given. */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/<%=\s*([A-Za-z_]+)(?:\.([A-Za-z_]+))?\s*%>/g, (whole, name: string, key: string | undefined) => {
    const value = values[name];
    const picked = key === undefined ? value : value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    return picked === undefined || picked === null ? '' : String(picked);
  });
}

/** Strapi's default templates of the two messages. */
export const defaultTemplates = {
  resetPassword: {
    subject: 'Reset password',
    message:
      '<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>But don’t worry! You can use the following link to reset your password:</p>\n<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>Thanks.</p>',
  },
  emailConfirmation: {
    subject: 'Account confirmation',
    message: '<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n<p><%= URL %>?confirmation=<%= CODE %></p>\n\n<p>Thanks.</p>',
  },
} as const;
