/**
 * The secrets features need, checked once at start-up, so that a deployment missing one fails
 * with a line naming it instead of refusing every sign-in or token later:
 *
 *   JWT_SECRET      the project has users-permissions' users: sign-in issues JWTs signed with it
 *   API_TOKEN_SALT  the database holds API tokens: each request's token is hashed with it
 *
 * In production a missing secret stops the server (MissingSecretError, one line); in development
 * it is a warning, so that a project can be tried without setting everything up first. A salt
 * that differs from the one the stored tokens were created with is an error in the log either way
 * (the tokens are refused; the server may still serve public content).
 *
 * A JWT_SECRET shorter than HS256's key size is a warning: every token it signed lets anyone try
 * secrets offline, and a guessed one signs in as any user. API_TOKEN_SALT has no such check: it
 * keys the hashes of 128-byte random access keys, which no salt length makes guessable.
 */
import type { Queryable } from './database.ts';
import { isProduction, MissingSecretError } from './env.ts';
import type { Logger } from './logger.ts';
import type { ModelSchema } from './schema.ts';
import { hasApiTokens, saltChangedMessage, tokenSalt, tokensOfOtherSalts } from './tokens.ts';
import { jwtSecret } from './user-jwt.ts';

const USER_UID = 'plugin::users-permissions.user';

/** RFC 7518, 3.2: an HS256 key must be at least as long as the hash, 256 bits. Strapi generates 16 random bytes. */
export const MIN_JWT_SECRET_BYTES = 32;

export interface SecretsCheck {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly db: Queryable;
  readonly model: ModelSchema;
  readonly logger: Logger;
}

export async function checkSecrets({ env, db, model, logger }: SecretsCheck): Promise<void> {
  const production = isProduction(env);
  const missing = (error: MissingSecretError): void => {
    if (production) throw error;
    logger.warn(error.message);
  };
  const secret = jwtSecret(env);
  if (Object.hasOwn(model.contentTypes, USER_UID) && secret === undefined) {
    missing(new MissingSecretError('JWT_SECRET', 'users sign in with JWTs signed with it'));
  }
  // With or without users: JWTs with a `sub` claim (`capi jwt`) are checked with it too.
  if (secret !== undefined && secret.length < MIN_JWT_SECRET_BYTES) logger.warn(shortSecretMessage(secret.length));
  if (!(await hasApiTokens(db))) return;
  const salt = tokenSalt(env);
  if (salt === undefined) {
    missing(new MissingSecretError('API_TOKEN_SALT', 'the database holds API tokens, which are checked with it'));
    return;
  }
  const others = await tokensOfOtherSalts(db, salt);
  if (others > 0) logger.error(saltChangedMessage(others));
}

function shortSecretMessage(bytes: number): string {
  return `JWT_SECRET is ${bytes} bytes long; HS256 needs at least ${MIN_JWT_SECRET_BYTES} (RFC 7518, 3.2): a short secret can be guessed offline from any token it signed, and then signs in as anyone. Set ${MIN_JWT_SECRET_BYTES} random bytes or more (openssl rand -base64 48)`;
}
