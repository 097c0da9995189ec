/**
 * `capi permissions list|grant|revoke`: reads and edits config/permissions.json, the actions each
 * role may perform. A new project opens no content to anyone (templates/runtime/permissions.ts,
 * `defaultPermissions`); these commands open a type on purpose, and close it again, checking every
 * name against the project's model so that a typo is refused rather than silently granting nothing.
 * The server reads the file when it starts.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closest } from '../templates/runtime/config-check.ts';
import { loadConfig, rolePattern } from '../templates/runtime/config.ts';
import { loadDotEnv } from '../templates/runtime/env.ts';
import { knownActions, type PermissionModel, type Permissions } from '../templates/runtime/permissions.ts';

/** A refusal of the command (an unknown action, type or role), for exit code 1. */
export class PermissionsCommandError extends Error {
  override readonly name = 'PermissionsCommandError';
}

export interface ProjectFlags {
  readonly project: string;
}

export interface ChangeFlags extends ProjectFlags {
  readonly role: string;
  /** Actions (`api::article.article.find`) or types (`api::article.article`: every action of the type). */
  readonly names: readonly string[];
}

interface Project {
  readonly file: string;
  readonly known: readonly string[];
  readonly permissions: Permissions;
}

const FILE = 'config/permissions.json';

/** The project's permissions, checked against its model as the server checks them at start. */
async function openProject(flags: ProjectFlags): Promise<Project> {
  const projectRoot = resolve(flags.project);
  loadDotEnv(projectRoot, process.env);
  const { model } = (await import(pathToFileURL(join(projectRoot, 'src', 'model.ts')).href)) as { model: PermissionModel };
  const { permissions } = loadConfig({ projectRoot, model });
  return { file: join(projectRoot, FILE), known: knownActions(model), permissions };
}

/**
 * The actions `names` stand for: an action itself, or a type's (or a plugin controller's) uid for
 * every action of it, in the order of knownActions. Throws for a name that is neither.
 */
export function expandActions(known: readonly string[], names: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const action of known) {
    const group = action.slice(0, action.lastIndexOf('.'));
    groups.set(group, [...(groups.get(group) ?? []), action]);
  }
  const wanted = new Set<string>();
  for (const name of names) {
    const actions = known.includes(name) ? [name] : groups.get(name);
    if (actions === undefined) {
      const guess = closest(name, [...known, ...groups.keys()]);
      throw new PermissionsCommandError(
        `"${name}" is neither an action nor a type of this project${guess === undefined ? '' : ` (did you mean "${guess}"?)`}; \`capi permissions list --all\` shows every action`,
      );
    }
    for (const action of actions) wanted.add(action);
  }
  return known.filter((action) => wanted.has(action));
}

function save(project: Project, permissions: Permissions): void {
  writeFileSync(project.file, `${JSON.stringify(permissions, null, 2)}\n`);
}

const APPLY = `(${FILE}; the server reads it when it starts)`;

export async function grantPermissions(flags: ChangeFlags): Promise<void> {
  if (!rolePattern.test(flags.role)) throw new PermissionsCommandError(`role "${flags.role}" must be a name in lower case (letters, digits, "-" or "_")`);
  const project = await openProject(flags);
  const actions = expandActions(project.known, flags.names);
  const current = project.permissions[flags.role] ?? [];
  const added = actions.filter((action) => !current.includes(action));
  if (added.length === 0) {
    process.stderr.write(`${flags.role} already has ${actions.join(', ')}\n`);
    return;
  }
  save(project, { ...project.permissions, [flags.role]: [...current, ...added] });
  process.stderr.write(`${flags.role} may now: ${added.join(', ')} ${APPLY}\n`);
}

export async function revokePermissions(flags: ChangeFlags): Promise<void> {
  const project = await openProject(flags);
  const current = project.permissions[flags.role];
  if (current === undefined) throw new PermissionsCommandError(`no role "${flags.role}" in ${FILE} (roles: ${Object.keys(project.permissions).join(', ')})`);
  const actions = expandActions(project.known, flags.names);
  const removed = current.filter((action) => actions.includes(action));
  if (removed.length === 0) {
    process.stderr.write(`${flags.role} has none of ${actions.join(', ')}\n`);
    return;
  }
  save(project, { ...project.permissions, [flags.role]: current.filter((action) => !actions.includes(action)) });
  process.stderr.write(`${flags.role} may no longer: ${removed.join(', ')} ${APPLY}\n`);
}

export interface ListFlags extends ProjectFlags {
  readonly role?: string;
  /** Every action the project has, rather than the granted ones. */
  readonly all: boolean;
}

/** One `role<TAB>action` line per grant (grep-friendly), or every action of the project with `--all`. */
export async function listPermissions(flags: ListFlags): Promise<void> {
  const project = await openProject(flags);
  if (flags.all) {
    process.stdout.write(`${project.known.join('\n')}\n`);
    return;
  }
  const roles = flags.role === undefined ? Object.keys(project.permissions) : [flags.role];
  if (flags.role !== undefined && project.permissions[flags.role] === undefined)
    throw new PermissionsCommandError(`no role "${flags.role}" in ${FILE} (roles: ${Object.keys(project.permissions).join(', ')})`);
  const lines = roles.flatMap((role) => {
    const actions = project.permissions[role] ?? [];
    return actions.length === 0 ? [`${role}\t(nothing)`] : actions.map((action) => `${role}\t${action}`);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
}
