/**
 * Where a role's actions live. A role config/permissions.json names keeps the file's actions: the
 * file is in version control and every deployment reproduces it, so the API cannot change them.
 * A role created through the role routes (or GraphQL mutations) keeps its actions in the
 * `capi_role_permissions` table: they apply to the next request of every process (each request of
 * such a role reads them, one indexed query), survive restarts, and go with the role.
 */
import type { Queryable } from '../database.ts';
import { ApplicationError, ValidationError } from '../errors.ts';
import { knownActions, type PermissionModel, type Permissions } from '../permissions.ts';

/** Table of generator/emit/prisma.ts (`RolePermission`). */
export const ROLE_PERMISSIONS_TABLE = 'capi_role_permissions';

/** Strapi's form of a role's actions: `{ "api::article": { controllers: { article: { find: { enabled: true, policy: "" } } } } }`. */
export type PermissionsTree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

export interface RoleActions {
  /** True when config/permissions.json names the role, which then keeps the file's actions. */
  inFile(type: string): boolean;
  /** The role's actions: the file's (no query) or the table's. */
  of(type: string): Promise<readonly string[]>;
  /** Replaces the actions of a role the file does not name. */
  replace(type: string, actions: readonly string[]): Promise<void>;
  remove(type: string): Promise<void>;
  /** Every action of the project, for the tree of a role (disabled ones included, as Strapi shows them). */
  readonly known: readonly string[];
}

export function roleActions(db: Queryable, file: Permissions, model: PermissionModel): RoleActions {
  const known = knownActions(model);
  const inFile = (type: string) => Object.hasOwn(file, type);
  return {
    known,
    inFile,
    async of(type) {
      if (inFile(type)) return file[type] ?? [];
      const rows = await db.query<{ action: string }>(`SELECT action FROM ${ROLE_PERMISSIONS_TABLE} WHERE role_type = ? ORDER BY action`, [type]);
      return rows.map((row) => row.action);
    },
    async replace(type, actions) {
      if (inFile(type)) throw new ApplicationError(fileOwned(type));
      await db.transaction(async (tx) => {
        await tx.execute(`DELETE FROM ${ROLE_PERMISSIONS_TABLE} WHERE role_type = ?`, [type]);
        if (actions.length === 0) return;
        const values = actions.map(() => '(?, ?)').join(', ');
        await tx.execute(
          `INSERT INTO ${ROLE_PERMISSIONS_TABLE} (role_type, action) VALUES ${values}`,
          actions.flatMap((action) => [type, action]),
        );
      });
    },
    async remove(type) {
      await db.execute(`DELETE FROM ${ROLE_PERMISSIONS_TABLE} WHERE role_type = ?`, [type]);
    },
  };
}

export function fileOwned(type: string): string {
  return `The permissions of role "${type}" are set in config/permissions.json: change them there (npx capi permissions grant|revoke)`;
}

/** The enabled actions of a tree, each checked against the project's actions; undefined when the body has no tree. */
export function actionsOfTree(tree: unknown, known: readonly string[]): string[] | undefined {
  if (tree === undefined) return undefined;
  if (!isObject(tree)) throw new ValidationError('permissions must be an object');
  const actions: string[] = [];
  for (const [scope, entry] of Object.entries(tree)) {
    const controllers = isObject(entry) ? entry['controllers'] : undefined;
    if (!isObject(controllers)) throw new ValidationError(`permissions.${scope}.controllers must be an object`);
    for (const [controller, byAction] of Object.entries(controllers)) {
      if (!isObject(byAction)) throw new ValidationError(`permissions.${scope}.controllers.${controller} must be an object`);
      for (const [name, setting] of Object.entries(byAction)) {
        if (!isObject(setting) || setting['enabled'] !== true) continue;
        actions.push(`${scope}.${controller}.${name}`);
      }
    }
  }
  const unknown = actions.filter((action) => !known.includes(action));
  if (unknown.length > 0) throw new ValidationError(`Unknown action${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`);
  return [...new Set(actions)].sort();
}

/** Every action of the project in Strapi's tree, the granted ones enabled. */
export function permissionsTree(known: readonly string[], granted: readonly string[]): PermissionsTree {
  const enabled = new Set(granted);
  const tree: PermissionsTree = {};
  for (const action of [...known, ...granted]) {
    const match = /^(.+)\.([^.]+)\.([^.]+)$/.exec(action);
    if (match === null) continue;
    const [, scope = '', controller = '', name = ''] = match;
    const controllers = (tree[scope] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: enabled.has(action), policy: '' };
  }
  return tree;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
