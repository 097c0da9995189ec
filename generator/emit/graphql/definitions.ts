/**
 * A small SDL syntax tree: what the GraphQL builders produce and what sdl.ts prunes, orders and
 * prints. Type references are kept as SDL strings (`[Tag]!`) because the builders only ever
 * write them and never need to inspect them beyond the named type.
 */

export interface ArgumentDef {
  readonly name: string;
  /** SDL type reference, e.g. `PaginationArg`, `ID!`. */
  readonly type: string;
  /** SDL literal of the default value, e.g. `{}`, `[]`, `PUBLISHED`. */
  readonly defaultValue?: string;
  readonly description?: string;
}

export interface FieldDef {
  readonly name: string;
  readonly type: string;
  readonly args?: readonly ArgumentDef[];
  readonly description?: string;
}

export interface InputFieldDef {
  readonly name: string;
  readonly type: string;
  /** SDL literal of the default value, e.g. `"local"`. */
  readonly defaultValue?: string;
}

/**
 * Where a type is printed: the schema lists its types group by group, each group sorted by
 * name, so that the output is stable whatever order the builders ran in.
 */
export type TypeGroup = 'scalar' | 'common' | 'content-type' | 'component' | 'plugin' | 'root';

export const GROUP_ORDER: readonly TypeGroup[] = ['scalar', 'common', 'content-type', 'component', 'plugin', 'root'];

interface TypeDefBase {
  readonly name: string;
  readonly group: TypeGroup;
  readonly description?: string;
}

export interface ScalarDef extends TypeDefBase {
  readonly kind: 'scalar';
}

export interface EnumDef extends TypeDefBase {
  readonly kind: 'enum';
  readonly values: readonly string[];
}

export interface ObjectDef extends TypeDefBase {
  readonly kind: 'object';
  readonly fields: readonly FieldDef[];
}

export interface InputDef extends TypeDefBase {
  readonly kind: 'input';
  readonly fields: readonly InputFieldDef[];
}

export interface UnionDef extends TypeDefBase {
  readonly kind: 'union';
  readonly members: readonly string[];
}

export type TypeDef = ScalarDef | EnumDef | ObjectDef | InputDef | UnionDef;

/** `[Tag!]!` -> `Tag`. */
export function namedType(reference: string): string {
  return reference.replace(/[[\]!]/g, '');
}

/** Marks a reference non-null once (`String` -> `String!`), as a required attribute does. */
export function nonNull(reference: string, required = true): string {
  return required && !reference.endsWith('!') ? `${reference}!` : reference;
}

/** Every named type a definition refers to: field, argument and input field types, union members. */
export function referencedTypes(def: TypeDef): string[] {
  switch (def.kind) {
    case 'scalar':
    case 'enum':
      return [];
    case 'union':
      return [...def.members];
    case 'input':
      return def.fields.map((f) => namedType(f.type));
    case 'object':
      return def.fields.flatMap((f) => [namedType(f.type), ...(f.args ?? []).map((a) => namedType(a.type))]);
  }
}

/**
 * Keeps the types reachable from the given roots, as Strapi does (it prunes its schema with
 * graphql-tools' pruneSchema): an input, filter or response type nothing refers to is not
 * served. Built-in scalars (String, Int, ...) have no definition and are simply not followed.
 */
export function prune(defs: readonly TypeDef[], roots: readonly string[]): TypeDef[] {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const reached = new Set<string>();
  const pending = roots.filter((r) => byName.has(r));
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    const def = byName.get(name);
    if (def !== undefined) pending.push(...referencedTypes(def).filter((n) => byName.has(n) && !reached.has(n)));
  }
  return defs.filter((d) => reached.has(d.name));
}

/**
 * Group by group, then by name (code-unit order, independent of the machine's locale); the
 * roots keep the order they were given in (Query before Mutation reads better than by name).
 */
export function sortDefinitions(defs: readonly TypeDef[]): TypeDef[] {
  const rank = (d: TypeDef): number => GROUP_ORDER.indexOf(d.group);
  const byName = (a: TypeDef, b: TypeDef): number => (a.group === 'root' ? 0 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...defs].sort((a, b) => rank(a) - rank(b) || byName(a, b));
}

/**
 * Plain SDL text of the definitions. Formatting is not a concern here: sdl.ts reprints the
 * result with graphql-js' printSchema, which is the canonical form.
 */
export function printDefinitions(defs: readonly TypeDef[]): string {
  return defs.map(printDefinition).join('\n\n') + '\n';
}

function printDefinition(def: TypeDef): string {
  const head = description(def.description, '');
  switch (def.kind) {
    case 'scalar':
      return `${head}scalar ${def.name}`;
    case 'enum':
      return `${head}enum ${def.name} {\n${def.values.map((v) => `  ${v}`).join('\n')}\n}`;
    case 'union':
      return `${head}union ${def.name} = ${def.members.join(' | ')}`;
    case 'input':
      return `${head}input ${def.name} {\n${def.fields.map((f) => `  ${f.name}: ${f.type}${f.defaultValue === undefined ? '' : ` = ${f.defaultValue}`}`).join('\n')}\n}`;
    case 'object':
      return `${head}type ${def.name} {\n${def.fields.map(printField).join('\n')}\n}`;
  }
}

function printField(field: FieldDef): string {
  const args = field.args ?? [];
  const list = args.length === 0 ? '' : `(${args.map(printArgument).join(', ')})`;
  return `${description(field.description, '  ')}  ${field.name}${list}: ${field.type}`;
}

function printArgument(arg: ArgumentDef): string {
  const value = arg.defaultValue === undefined ? '' : ` = ${arg.defaultValue}`;
  const head = arg.description === undefined ? '' : `${JSON.stringify(arg.description)} `;
  return `${head}${arg.name}: ${arg.type}${value}`;
}

function description(text: string | undefined, indent: string): string {
  return text === undefined ? '' : `${indent}${JSON.stringify(text)}\n`;
}
