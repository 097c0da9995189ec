/** Password hashing in Strapi's bcrypt format: hashes from a real Strapi database verify. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashPassword, isPasswordHash, verifyPassword } from './password.ts';

const strapi = JSON.parse(readFileSync(new URL('../../../test/fixtures/strapi-users/users.json', import.meta.url), 'utf8')) as { users: { password: string; hash: string }[] };

describe('passwords', () => {
  it('verifies the bcrypt hashes Strapi 5 wrote, and refuses other passwords', async () => {
    for (const user of strapi.users) {
      expect(isPasswordHash(user.hash)).toBe(true);
      expect(await verifyPassword(user.password, user.hash)).toBe(true);
      expect(await verifyPassword(`${user.password} `, user.hash)).toBe(false);
    }
  });

  it('hashes as Strapi does ($2 bcrypt, 10 rounds, a salt each time)', async () => {
    const a = await hashPassword('Secret-123');
    const b = await hashPassword('Secret-123');
    expect(a).toMatch(/^\$2[ab]\$10\$[./A-Za-z0-9]{53}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Secret-123', a)).toBe(true);
  });

  it('refuses malformed hashes instead of throwing', async () => {
    for (const bad of ['', 'plain', '$2a$10$short', 'scrypt$x$y$z$a$b']) expect(await verifyPassword('x', bad)).toBe(false);
  });
});
