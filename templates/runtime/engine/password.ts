/**
 * Password attributes are stored as bcrypt hashes in the format Strapi writes (`$2a$10$...`, 10
 * rounds, bcryptjs), so that the users and passwords of a Strapi database sign in unchanged, and
 * never as given. Hashes from earlier capi versions (`scrypt$<N>$<r>$<p>$<salt>$<hash>`) still
 * verify, so existing rows keep working.
 */
import { scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import bcrypt from 'bcryptjs';

/** Strapi's users-permissions hashes with 10 rounds. */
const BCRYPT_ROUNDS = 10;
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const SCRYPT_HASH = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;
const SCRYPT_KEY_LENGTH = 64;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

/** True when `password` is the one `encoded` was made from; false for anything malformed. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  if (BCRYPT_HASH.test(encoded)) return bcrypt.compare(password, encoded);
  if (SCRYPT_HASH.test(encoded)) return verifyScrypt(password, encoded);
  return false;
}

export function isPasswordHash(value: string): boolean {
  return BCRYPT_HASH.test(value) || SCRYPT_HASH.test(value);
}

function deriveScrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, SCRYPT_KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

async function verifyScrypt(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length !== SCRYPT_KEY_LENGTH) return false;
  try {
    return timingSafeEqual(await deriveScrypt(password, Buffer.from(parts[4]!, 'base64'), { N, r, p }), expected);
  } catch {
    return false;
  }
}
