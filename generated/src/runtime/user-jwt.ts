/**
 * Signed-in users, the way Strapi's users-permissions plugin recognises them: a JWT signed
 * (HS256) with JWT_SECRET in `Authorization: Bearer`. capi keeps no user accounts; whatever
 * signs in users (Strapi's own login, an identity service, `capi jwt sign`) shares the secret,
 * and capi trusts the token's subject for the request. The user acts as the `authenticated`
 * role of config/permissions.json, or as the role named in the token's `role` claim.
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
    return { subject, role };
  } catch {
    return undefined;
  }
}

export interface UserJwtInput {
  readonly subject: string;
  readonly role?: string;
  readonly expiresInHours: number;
}

export function signUserJwt(input: UserJwtInput, secret: Uint8Array): Promise<string> {
  const claims = input.role === undefined ? {} : { role: input.role };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.subject)
    .setIssuedAt()
    .setExpirationTime(`${input.expiresInHours}h`)
    .sign(secret);
}
