/**
 * Strapi's rate limit on the sign-in operations: attempts are counted per operation, subject and
 * address, and past `max` in `interval` the operation answers 429.
 *
 * The subject is what the operation itself decides on, never a field it ignores: the account a
 * sign-in tries (so that its username and its email count together), the signed-in user changing
 * their password, the address a mail goes to. Strapi keyed every route on the body's `email`,
 * which a caller could vary on routes that never read it to get a fresh counter per request
 * (GHSA-7mqx-wwh4-f9fw). The operation, not the request path, names the counter: `/api/auth/LOCAL`,
 * a trailing slash and the GraphQL `login` mutation all count as `login`.
 *
 * The address stays part of the key, as in Strapi: a counter per account alone would let anyone
 * lock an account out by failing its password on purpose.
 */
import { ipKeyGenerator } from 'express-rate-limit';
import type { UsersPermissionsConfig } from '../config.ts';
import type { Queryable } from '../database.ts';
import { attemptCounter, RateLimitError } from '../rate-limit/index.ts';

export { RateLimitError } from '../rate-limit/index.ts';

/** The rate-limited operations, REST route and GraphQL mutation alike (email confirmation is not limited, as in Strapi). */
export type SignInOperation = 'login' | 'register' | 'changePassword' | 'forgotPassword' | 'resetPassword' | 'sendEmailConfirmation';

/** Counts one attempt against `subject`, once the operation knows it; throws RateLimitError past the limit. */
export type SignInGate = (subject: SignInSubject) => Promise<void>;

export interface SignInLimiter {
  /** The gate of one attempt at `operation` from `address` (the client's IP). */
  readonly attempt: (operation: SignInOperation, address: string) => SignInGate;
}

/** Whom an attempt is about, as the operation resolved it. */
export type SignInSubject =
  /** A known account: its username and email share this counter. */
  | { readonly account: number }
  /** An identifier or address no account has (yet): still counted, so that probing is limited too. */
  | { readonly identifier: string }
  /** No subject the caller could vary: the reset code is the secret being guessed, so it cannot name the counter. */
  | { readonly anyone: true };

/** A gate that lets everything through, for servers with the limit turned off. */
const open: SignInGate = async () => undefined;

/** Counters in the database on PostgreSQL (shared by every process), in memory elsewhere (rate-limit/index.ts). */
export function signInLimiter(config: UsersPermissionsConfig['ratelimit'], db: Queryable): SignInLimiter {
  if (!config.enabled) return { attempt: () => open };
  const count = attemptCounter(db, 'sign-in', config.intervalMs);
  return {
    attempt: (operation, address) => async (subject) => {
      // express-rate-limit's rule: a request whose count, this one included, exceeds the limit is refused.
      if ((await count(`${operation}:${subjectKey(subject)}:${ipKeyGenerator(address)}`)) > config.max) throw new RateLimitError();
    },
  };
}

/** An identifier as the counter sees it: case and surrounding spaces do not make another subject. */
export function identifierSubject(identifier: string): SignInSubject {
  return { identifier: identifier.trim().toLowerCase() };
}

function subjectKey(subject: SignInSubject): string {
  if ('account' in subject) return `account=${subject.account}`;
  if ('identifier' in subject) return `identifier=${subject.identifier}`;
  return 'anyone';
}
