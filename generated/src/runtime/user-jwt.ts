/**
 * Signed-in users, the way Strapi's users-permissions plugin recognises them: a JWT signed
 * (HS256) with JWT_SECRET in `Authorization: Bearer`. The tokens capi's own sign-in issues
 * (users/) carry the account's `id`: the account is looked up and acts as its role. A token with
 * a `sub` claim instead comes from another issuer sharing the secret (an identity service,
 * `capi jwt sign`): capi trusts its subject, which acts as the `authenticated` role of
 * config/permissions.json, or as the role named in the token's `role` claim.
 *
 * A token without an `exp` claim would be good forever: it is accepted for the configured
 * lifetime (users-permissions `jwt.expiresIn`, 30 days as in Strapi) after its `iat`, and
 * refused when it has no `iat` either, or an `iat` in the future.
 */
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import type { Permissions } from './permissions.ts';

export interface SignedInUser {
  readonly subject: string;
  readonly role: string;
  /** Set for the tokens users-permissions issues (an `id` claim, no `sub`): the account to look up. */
  readonly userId?: number;
}

/** JWTs have three dot-separated parts; API tokens are hex and have none. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}

export interface UserJwtPolicy {
  readonly secret: Uint8Array;
  /** Seconds a token without `exp` is accepted after its `iat`. */
  readonly maxAgeWithoutExp: number;
}

export function jwtSecret(env: Readonly<Record<string, string | undefined>>): Uint8Array | undefined {
  const secret = env.JWT_SECRET;
  return secret === undefined || secret.trim() === '' ? undefined : new TextEncoder().encode(secret);
}

/** The user a JWT stands for, or undefined when it is forged, expired (or too old) or names no usable role. */
export async function verifyUserJwt(token: string, policy: UserJwtPolicy, permissions: Permissions): Promise<SignedInUser | undefined> {
  try {
    // The unverified claims only choose which checks apply; the signature is verified below.
    const noExpiry = decodeJwt(token).exp === undefined;
    const { payload } = await jwtVerify(token, policy.secret, { algorithms: ['HS256'], ...(noExpiry ? { maxTokenAge: policy.maxAgeWithoutExp } : {}) });
    // Strapi's own tokens carry the user id as `id`; others use the standard `sub`.
    const subject = payload.sub ?? (payload.id === undefined ? undefined : String(payload.id));
    const role = typeof payload.role === 'string' ? payload.role : 'authenticated';
    if (subject === undefined || role === 'public' || !Object.hasOwn(permissions, role)) return undefined;
    const userId = payload.sub === undefined && typeof payload.id === 'number' && Number.isSafeInteger(payload.id) ? payload.id : undefined;
    return userId === undefined ? { subject, role } : { subject, role, userId };
  } catch {
    return undefined;
  }
}

export interface UserJwtInput {
  readonly subject: string;
  readonly role?: string;
  readonly expiresInHours: number;
}

/** A JWT as users-permissions issues one on sign-in: HS256, the user's `id`, `iat` and `exp`. */
export function issueUserJwt(id: number, secret: Uint8Array, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ id })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(secret);
}

export function signUserJwt(input: UserJwtInput, secret: Uint8Array): Promise<string> {
  const claims = input.role === undefined ? {} : { role: input.role };
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(input.subject).setIssuedAt().setExpirationTime(`${input.expiresInHours}h`).sign(secret);
}
