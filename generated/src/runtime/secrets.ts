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
 */
import type { Queryable } from './database.ts';
import { isProduction, MissingSecretError } from './env.ts';
import type { Logger } from './logger.ts';
import type { ModelSchema } from './schema.ts';
import { hasApiTokens, saltChangedMessage, tokenSalt, tokensOfOtherSalts } from './tokens.ts';
import { jwtSecret } from './user-jwt.ts';

const USER_UID = 'plugin::users-permissions.user';

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
  if (Object.hasOwn(model.contentTypes, USER_UID) && jwtSecret(env) === undefined) {
    missing(new MissingSecretError('JWT_SECRET', 'users sign in with JWTs signed with it'));
  }
  if (!(await hasApiTokens(db))) return;
  const salt = tokenSalt(env);
  if (salt === undefined) {
    missing(new MissingSecretError('API_TOKEN_SALT', 'the database holds API tokens, which are checked with it'));
    return;
  }
  const others = await tokensOfOtherSalts(db, salt);
  if (others > 0) logger.error(saltChangedMessage(others));
}
