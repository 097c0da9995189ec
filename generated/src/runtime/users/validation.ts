/**
 * The request bodies of users-permissions' routes, checked the way the plugin checks them (yup
 * schemas, every problem reported): a single problem is the message, several are
 * "<n> errors occurred", each listed in `details.errors` with its path.
 */
import { ValidationError, type ValidationIssue } from '../errors.ts';
import type { JsonValue } from '../schema.ts';

/** The email pattern users-permissions tests identifiers and addresses with. */
const EMAIL = /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** bcrypt reads at most 72 bytes; Strapi refuses longer passwords rather than truncate them. */
const MAX_PASSWORD_BYTES = 72;

type Rule = (value: unknown, body: Readonly<Record<string, unknown>>) => string | undefined;

const required: (field: string) => Rule = (field) => (value) => (value === undefined || value === null || value === '' ? `${field} is a required field` : undefined);
const text: (field: string) => Rule = (field) => (value) =>
  value === undefined || value === null || typeof value === 'string' ? undefined : `${field} must be a \`string\` type, but the final value was: \`${JSON.stringify(value)}\`.`;
const email: (field: string) => Rule = (field) => (value) => (typeof value === 'string' && value !== '' && !isEmail(value) ? `${field} must be a valid email` : undefined);
const passwordBytes: Rule = (value) => (typeof value === 'string' && new TextEncoder().encode(value).length > MAX_PASSWORD_BYTES ? 'Password must be less than 73 bytes' : undefined);
const minLength: (field: string, n: number) => Rule = (field, n) => (value) =>
  typeof value === 'string' && value !== '' && value.length < n ? `${field} must be at least ${n} characters` : undefined;
const sameAs: (other: string) => Rule = (other) => (value, body) => (value !== undefined && value !== body[other] ? 'Passwords do not match' : undefined);

type Shape = Readonly<Record<string, readonly Rule[]>>;

function check(shape: Shape, body: unknown): Record<string, unknown> {
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const issues: ValidationIssue[] = [];
  for (const [field, rules] of Object.entries(shape)) {
    const value = fields[field];
    // Like yup, each field reports its first failing rule.
    const message = rules.map((rule) => rule(value, fields)).find((m) => m !== undefined);
    if (message !== undefined) issues.push({ path: [field], message, name: 'ValidationError', ...(isJson(value) ? { value } : {}) });
  }
  if (issues.length > 0) throw ValidationError.of(issues.length === 1 ? issues[0]!.message : `${issues.length} errors occurred`, issues);
  return fields;
}

function isJson(value: unknown): value is JsonValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

const string = (field: string): Rule[] => [text(field), required(field)];

export const validateCallbackBody = (body: unknown) => check({ identifier: string('identifier'), password: string('password') }, body) as { identifier: string; password: string };

export const validateRegisterBody = (body: unknown, passwordMinLength: number) =>
  check(
    {
      email: [text('email'), required('email'), email('email')],
      username: string('username'),
      password: [text('password'), required('password'), minLength('password', passwordMinLength), passwordBytes],
    },
    body,
  ) as { email: string; username: string; password: string };

export const validateChangePasswordBody = (body: unknown, passwordMinLength: number) =>
  check(
    {
      currentPassword: string('currentPassword'),
      password: [text('password'), required('password'), minLength('password', passwordMinLength), passwordBytes],
      passwordConfirmation: [text('passwordConfirmation'), required('passwordConfirmation'), sameAs('password')],
    },
    body,
  ) as { currentPassword: string; password: string };

export const validateResetPasswordBody = (body: unknown, passwordMinLength: number) =>
  check(
    {
      code: string('code'),
      password: [text('password'), required('password'), minLength('password', passwordMinLength), passwordBytes],
      passwordConfirmation: [text('passwordConfirmation'), required('passwordConfirmation'), sameAs('password')],
    },
    body,
  ) as { code: string; password: string };

export const validateEmailBody = (body: unknown) => check({ email: [text('email'), required('email'), email('email')] }, body) as { email: string };

export const validateCreateUserBody = (body: unknown) =>
  check({ email: [text('email'), required('email'), email('email')], username: string('username'), password: [...string('password'), passwordBytes] }, body) as {
    email: string;
    username: string;
    password: string;
  } & Record<string, unknown>;

export const validateUpdateUserBody = (body: unknown) => check({ email: [text('email'), email('email')], username: [text('username')], password: [text('password'), passwordBytes] }, body);
