/**
 * Who is calling and what they may do. Every request resolves to one `Access`; handlers ask it
 * for Strapi-named actions (`api::article.article.find`) before touching data. Requests without
 * credentials act as the `public` role.
 */
import type { Request } from 'express';
import { ForbiddenError } from './errors.ts';
import type { Permissions } from './permissions.ts';

export interface Access {
  /** The role (or token) the request acts as, for logs. */
  readonly principal: string;
  can(action: string): boolean;
}

/** Throws the Strapi 403 envelope unless `access` may perform `action`. */
export function authorize(access: Access, action: string): void {
  if (!access.can(action)) throw new ForbiddenError();
}

/** An Access granting exactly the actions a role lists in config/permissions.json. */
export function roleAccess(permissions: Permissions, role: string): Access {
  const granted = new Set(permissions[role] ?? []);
  return { principal: `role:${role}`, can: (action) => granted.has(action) };
}

export type AccessResolver = (req: Request) => Access;

/** Until API tokens exist every request is anonymous: it acts as the public role. */
export function publicAccessResolver(permissions: Permissions): AccessResolver {
  const access = roleAccess(permissions, 'public');
  return () => access;
}

/**
 * Whether documents of `uid` may be read through another type (populate, relation filters):
 * the spec ties returning a content type to its `find` permission.
 */
export function canRead(access: Access, uid: string): boolean {
  return access.can(`${uid}.find`);
}
