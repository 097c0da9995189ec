/**
 * MySQL/MariaDB migrations from two schema.prisma texts. Prisma 6's JavaScript schema engine (the
 * WebAssembly build `prisma migrate diff` runs offline) carries only the SQLite and PostgreSQL
 * connectors: a `provider = "mysql"` schema fails with "`mysql` is not a supported connector",
 * and the native engine would be a binary download. So for MySQL capi renders the DDL itself, in
 * the form Prisma's MySQL connector writes it (same types, index and constraint names), from the
 * subset of the Prisma schema language that emit/prisma.ts produces.
 *
 * Tables are created with the `utf8mb4_bin` collation: text compares and sorts byte-wise, as on
 * SQLite and with PostgreSQL's `COLLATE "C"` ordering, so every database answers a filter alike.
 */
import { DATABASES } from './databases.ts';

interface Column {
  readonly name: string;
  /** Everything after the name: type, nullability, default. */
  readonly definition: string;
}

interface Index {
  readonly name: string;
  readonly unique: boolean;
  readonly columns: readonly string[];
}

interface ForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly table: string;
  readonly references: readonly string[];
  readonly onDelete: string;
}

interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly primaryKey: readonly string[];
  readonly indexes: readonly Index[];
  readonly foreignKeys: readonly ForeignKey[];
}

const MAX_IDENTIFIER = DATABASES.mysql.maxIdentifier;
const COLLATION = 'DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

interface ParsedField {
  readonly name: string;
  readonly type: string;
  readonly optional: boolean;
  readonly list: boolean;
  readonly attributes: string;
}

interface ParsedModel {
  readonly name: string;
  readonly table: string;
  readonly fields: readonly ParsedField[];
  readonly blockAttributes: readonly string[];
}

function parseModels(schema: string): ParsedModel[] {
  const models: ParsedModel[] = [];
  for (const block of schema.matchAll(/^model (\w+) \{\n([\s\S]*?)\n\}/gm)) {
    const [, name = '', body = ''] = block;
    const fields: ParsedField[] = [];
    const blockAttributes: string[] = [];
    for (const line of body.split('\n').map((l) => l.trim())) {
      if (line === '' || line.startsWith('//')) continue;
      if (line.startsWith('@@')) {
        blockAttributes.push(line);
        continue;
      }
      const match = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (match === null) throw new Error(`mysql-ddl: cannot read the field line "${line}" of model ${name}`);
      fields.push({ name: match[1]!, type: match[2]!, list: match[3] !== undefined, optional: match[4] !== undefined, attributes: match[5] ?? '' });
    }
    const table = /^@@map\("([^"]+)"\)/.exec(blockAttributes.find((a) => a.startsWith('@@map(')) ?? '')?.[1] ?? name;
    models.push({ name, table, fields, blockAttributes });
  }
  return models;
}

const SCALARS = new Set(['Int', 'BigInt', 'Float', 'Decimal', 'Boolean', 'String', 'DateTime', 'Json', 'Bytes']);

function columnOf(field: ParsedField): string {
  return /@map\("([^"]+)"\)/.exec(field.attributes)?.[1] ?? field.name;
}

/** The MySQL column type Prisma's MySQL connector gives a field. */
function columnType(field: ParsedField): string {
  const native = /@db\.(\w+)(?:\(([^)]*)\))?/.exec(field.attributes);
  if (native !== null) {
    const [, type = '', args] = native;
    const name = type === 'VarChar' ? 'VARCHAR' : type === 'DateTime' ? 'DATETIME' : type.toUpperCase();
    return args === undefined ? name : `${name}(${args})`;
  }
  const types: Readonly<Record<string, string>> = {
    Int: 'INTEGER',
    BigInt: 'BIGINT',
    Float: 'DOUBLE',
    Decimal: 'DECIMAL(65, 30)',
    Boolean: 'BOOLEAN',
    String: 'VARCHAR(191)',
    DateTime: 'DATETIME(3)',
    Json: 'JSON',
    Bytes: 'LONGBLOB',
  };
  const type = types[field.type];
  if (type === undefined) throw new Error(`mysql-ddl: no MySQL type for ${field.type}`);
  return type;
}

function columnDefinition(field: ParsedField): string {
  const parts = [columnType(field), field.optional ? 'NULL' : 'NOT NULL'];
  const fallback = /@default\(((?:[^()]|\([^()]*\))*)\)/.exec(field.attributes)?.[1];
  if (fallback === 'autoincrement()') parts.push('AUTO_INCREMENT');
  else if (fallback === 'now()') parts.push('DEFAULT CURRENT_TIMESTAMP(3)');
  else if (fallback !== undefined) parts.push(`DEFAULT ${fallback.startsWith('"') ? sqlString(JSON.parse(fallback) as string) : fallback}`);
  return parts.join(' ');
}

/** A string literal; capi's defaults hold no backslash, which MySQL's default sql_mode would read as an escape. */
const sqlString = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** Prisma's default name of an index or constraint, cut to MySQL's 64 characters keeping the suffix. */
function defaultName(table: string, columns: readonly string[], suffix: string): string {
  return `${table}_${columns.join('_')}`.slice(0, MAX_IDENTIFIER - suffix.length) + suffix;
}

function listOf(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function toTables(schema: string): Map<string, Table> {
  const models = parseModels(schema);
  const byModel = new Map(models.map((m) => [m.name, m]));
  const tables = new Map<string, Table>();
  for (const model of models) {
    const columnByField = new Map(model.fields.map((f) => [f.name, columnOf(f)]));
    const column = (field: string): string => columnByField.get(field) ?? field;
    const scalars = model.fields.filter((f) => SCALARS.has(f.type) && !f.list);
    const indexes: Index[] = [];
    for (const f of scalars) if (/@unique\b/.test(f.attributes)) indexes.push({ name: defaultName(model.table, [columnOf(f)], '_key'), unique: true, columns: [columnOf(f)] });
    for (const attribute of model.blockAttributes) {
      const match = /^@@(index|unique)\(\[([^\]]*)\](?:,\s*map:\s*"([^"]+)")?\)$/.exec(attribute);
      if (match === null) continue;
      const unique = match[1] === 'unique';
      // `slug(sort: Desc)`: a descending key part (emit/prisma.ts' sort twins), kept as `slug DESC`.
      const columns = listOf(match[2]!).map((part) => {
        const [, field = part, order] = /^(\w+)(?:\(sort: (Asc|Desc)\))?$/.exec(part) ?? [];
        return order === 'Desc' ? `${column(field)} DESC` : column(field);
      });
      const named = columns.map((c) => c.replace(/ DESC$/, ''));
      indexes.push({ name: match[3] ?? defaultName(model.table, named, unique ? '_key' : '_idx'), unique, columns });
    }
    const foreignKeys: ForeignKey[] = [];
    for (const f of model.fields) {
      const relation = /@relation\(fields:\s*\[([^\]]*)\],\s*references:\s*\[([^\]]*)\](?:,\s*onDelete:\s*(\w+))?/.exec(f.attributes);
      if (relation === null) continue;
      const target = byModel.get(f.type);
      if (target === undefined) throw new Error(`mysql-ddl: relation ${model.name}.${f.name} names the unknown model ${f.type}`);
      const targetColumns = new Map(target.fields.map((t) => [t.name, columnOf(t)]));
      const columns = listOf(relation[1]!).map(column);
      foreignKeys.push({
        name: defaultName(model.table, columns, '_fkey'),
        columns,
        table: target.table,
        references: listOf(relation[2]!).map((r) => targetColumns.get(r) ?? r),
        onDelete: { Cascade: 'CASCADE', SetNull: 'SET NULL', Restrict: 'RESTRICT', NoAction: 'NO ACTION' }[relation[3] ?? 'Restrict'] ?? 'RESTRICT',
      });
    }
    tables.set(model.table, {
      name: model.table,
      columns: scalars.map((f) => ({ name: columnOf(f), definition: columnDefinition(f) })),
      primaryKey: scalars.filter((f) => /@id\b/.test(f.attributes)).map(columnOf),
      indexes,
      foreignKeys,
    });
  }
  return tables;
}

const q = (identifier: string): string => `\`${identifier.replace(/`/g, '``')}\``;
const columnList = (columns: readonly string[]): string => columns.map(q).join(', ');
/** An index's key parts: a column, or `column DESC` for a descending one. */
const keyParts = (columns: readonly string[]): string => columns.map((c) => (c.endsWith(' DESC') ? `${q(c.slice(0, -' DESC'.length))} DESC` : q(c))).join(', ');

function createTable(table: Table): string {
  const lines = [
    ...table.columns.map((c) => `${q(c.name)} ${c.definition}`),
    ...table.indexes.map((i) => `${i.unique ? 'UNIQUE INDEX' : 'INDEX'} ${q(i.name)}(${keyParts(i.columns)})`),
    ...(table.primaryKey.length > 0 ? [`PRIMARY KEY (${columnList(table.primaryKey)})`] : []),
  ];
  return `-- CreateTable\nCREATE TABLE ${q(table.name)} (\n${lines.map((l) => `    ${l}`).join(',\n')}\n) ${COLLATION};\n`;
}

function addForeignKey(table: string, fk: ForeignKey): string {
  return `-- AddForeignKey\nALTER TABLE ${q(table)} ADD CONSTRAINT ${q(fk.name)} FOREIGN KEY (${columnList(fk.columns)}) REFERENCES ${q(fk.table)}(${columnList(fk.references)}) ON DELETE ${fk.onDelete} ON UPDATE CASCADE;\n`;
}

const sameIndex = (a: Index, b: Index): boolean => a.name === b.name && a.unique === b.unique && a.columns.join() === b.columns.join();
const sameForeignKey = (a: ForeignKey, b: ForeignKey): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The migration script from `previous` (undefined: an empty database) to `next`, in the order
 * Prisma writes one: foreign keys and indexes that go away first, then tables and columns, then
 * new indexes and foreign keys. Empty (comments only) when nothing changes.
 */
export function mysqlMigration(previous: string | undefined, next: string): string {
  const before = previous === undefined ? new Map<string, Table>() : toTables(previous);
  const after = toTables(next);
  const out: string[] = [];
  for (const [name, table] of before) {
    const kept = after.get(name);
    for (const fk of table.foreignKeys) if (!kept?.foreignKeys.some((k) => sameForeignKey(k, fk))) out.push(`-- DropForeignKey\nALTER TABLE ${q(name)} DROP FOREIGN KEY ${q(fk.name)};\n`);
  }
  for (const [name, table] of before) {
    const kept = after.get(name);
    if (kept === undefined) continue;
    for (const index of table.indexes) if (!kept.indexes.some((i) => sameIndex(i, index))) out.push(`-- DropIndex\nDROP INDEX ${q(index.name)} ON ${q(name)};\n`);
  }
  for (const name of before.keys()) if (!after.has(name)) out.push(`-- DropTable\nDROP TABLE ${q(name)};\n`);
  for (const [name, table] of after) {
    const old = before.get(name);
    if (old === undefined) continue;
    const changes: string[] = [];
    for (const c of old.columns) if (!table.columns.some((n) => n.name === c.name)) changes.push(`DROP COLUMN ${q(c.name)}`);
    for (const c of table.columns) {
      const was = old.columns.find((o) => o.name === c.name);
      if (was === undefined) changes.push(`ADD COLUMN ${q(c.name)} ${c.definition}`);
      else if (was.definition !== c.definition) changes.push(`MODIFY ${q(c.name)} ${c.definition}`);
    }
    if (changes.length > 0) out.push(`-- AlterTable\nALTER TABLE ${q(name)} ${changes.join(',\n    ')};\n`);
  }
  for (const [name, table] of after) if (!before.has(name)) out.push(createTable(table));
  for (const [name, table] of after) {
    const old = before.get(name);
    if (old === undefined) continue;
    for (const index of table.indexes) {
      if (!old.indexes.some((i) => sameIndex(i, index))) out.push(`-- CreateIndex\nCREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(index.name)} ON ${q(name)}(${keyParts(index.columns)});\n`);
    }
  }
  for (const [name, table] of after) {
    const old = before.get(name);
    for (const fk of table.foreignKeys) if (!old?.foreignKeys.some((k) => sameForeignKey(k, fk))) out.push(addForeignKey(name, fk));
  }
  return out.length === 0 ? '-- This is an empty migration.\n' : out.join('\n');
}
