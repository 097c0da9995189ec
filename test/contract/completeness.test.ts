/**
 * The contract's promise: a new scalar type, operator or database does not compile until every
 * part of its entry is written. Each case compiles a small fixture against the real tables with
 * the TypeScript compiler (ts-morph's; capi's own tsc is the native one, without an API) and expects exactly the error that names the missing part (and a
 * complete entry to compile clean, so that the check can tell the two apart).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Project, ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';

const contract = resolve(import.meta.dirname, '../../templates/contract');
const scratch = mkdtempSync(join(tmpdir(), 'capi-contract-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: [],
};

const SCALAR_PARTS = ['description', 'coerce', 'serialize', 'body', 'graphql', 'jsonSchema', 'column', 'domain', 'indexed', 'search'] as const;
const OPERATOR_PARTS = ['arity', 'onNull', 'evaluate'] as const;

/** Every fixture, by name: compiled together once (one program), each checked on its own. */
const FIXTURES: Readonly<Record<string, string>> = {
  'complete-type': `
    import { SCALAR_TYPES, type ScalarTypeSpec } from 'CONTRACT/scalar-types.ts';
    export const TABLE = { ...SCALAR_TYPES, color: SCALAR_TYPES.string } satisfies Record<string, ScalarTypeSpec>;`,
  ...Object.fromEntries(
    SCALAR_PARTS.map((part) => [
      `type-without-${part}`,
      `
    import { SCALAR_TYPES, type ScalarTypeSpec } from 'CONTRACT/scalar-types.ts';
    const { ${part}: _dropped, ...color } = SCALAR_TYPES.string;
    export const TABLE = { ...SCALAR_TYPES, color } satisfies Record<string, ScalarTypeSpec>;`,
    ]),
  ),
  'type-without-mysql-column': `
    import { SCALAR_TYPES, type ScalarTypeSpec } from 'CONTRACT/scalar-types.ts';
    const color = { ...SCALAR_TYPES.string, column: { sqlite: { prisma: 'String' }, postgres: { prisma: 'String' } } } as const;
    export const TABLE = { ...SCALAR_TYPES, color } satisfies Record<string, ScalarTypeSpec>;`,
  'integer-domain-without-max': `
    import { SCALAR_TYPES, type ScalarTypeSpec } from 'CONTRACT/scalar-types.ts';
    const counter = { ...SCALAR_TYPES.integer, domain: { kind: 'integer', min: 0n } } as const;
    export const TABLE = { ...SCALAR_TYPES, counter } satisfies Record<string, ScalarTypeSpec>;`,
  'new-coercion': `
    import type { Coercion } from 'CONTRACT/scalar-types.ts';
    type NewCoercion = Coercion | 'color';
    export const COERCIONS: Record<NewCoercion, (value: string) => string> = {
      text: String, number: String, biginteger: String, boolean: String, date: String, datetime: String, time: String,
    };`,
  'complete-operator': `
    import { OPERATORS, type OperatorSpec } from 'CONTRACT/operators.ts';
    export const TABLE = { ...OPERATORS, like: { ...OPERATORS.contains, rest: '$like', graphql: null } } satisfies Record<string, OperatorSpec>;`,
  'operator-without-mysql': `
    import { OPERATORS, type OperatorSpec } from 'CONTRACT/operators.ts';
    const like = { ...OPERATORS.contains, rest: '$like', sql: { sqlite: OPERATORS.contains.sql.sqlite, postgres: OPERATORS.contains.sql.postgres } } as const;
    export const TABLE = { ...OPERATORS, like } satisfies Record<string, OperatorSpec>;`,
  ...Object.fromEntries(
    OPERATOR_PARTS.map((part) => [
      `operator-without-${part}`,
      `
    import { OPERATORS, type OperatorSpec } from 'CONTRACT/operators.ts';
    const { ${part}: _dropped, ...like } = OPERATORS.contains;
    export const TABLE = { ...OPERATORS, like } satisfies Record<string, OperatorSpec>;`,
    ]),
  ),
  'new-database': `
    import type { DatabaseKind } from 'CONTRACT/database.ts';
    import { OPERATORS, type RenderSql } from 'CONTRACT/operators.ts';
    type Wider = DatabaseKind | 'oracle';
    export const EQ: Record<Wider, RenderSql> = OPERATORS.eq.sql;`,
};

let compiled: ReadonlyMap<string, string> | undefined;

/** The compiler's errors of one fixture, joined. */
function errorsOf(name: string): string {
  compiled ??= compileFixtures();
  return compiled.get(name) ?? '';
}

function compileFixtures(): ReadonlyMap<string, string> {
  const project = new Project({ compilerOptions: OPTIONS });
  for (const [name, source] of Object.entries(FIXTURES)) {
    const file = join(scratch, `${name}.ts`);
    writeFileSync(file, source.replaceAll('CONTRACT', contract));
    project.addSourceFileAtPath(file);
  }
  project.resolveSourceFileDependencies();
  const errors = new Map<string, string[]>();
  for (const diagnostic of project.getPreEmitDiagnostics()) {
    const name = diagnostic.getSourceFile()?.getBaseNameWithoutExtension() ?? '(global)';
    errors.set(name, [...(errors.get(name) ?? []), ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ')]);
  }
  return new Map([...errors].map(([name, messages]) => [name, messages.join('\n')]));
}

describe('SCALAR_TYPES', () => {
  it('accepts a new type whose entry has every part', () => {
    expect(errorsOf('complete-type')).toBe('');
    expect(errorsOf('(global)')).toBe('');
  });

  it.each(SCALAR_PARTS)('refuses a new type whose entry has no %s', (part) => {
    expect(errorsOf(`type-without-${part}`)).toContain(`Property '${part}' is missing`);
  });

  it('refuses a new type without a column on one database', () => {
    expect(errorsOf('type-without-mysql-column')).toContain("Property 'mysql' is missing");
  });

  it('refuses an integer domain without both bounds', () => {
    expect(errorsOf('integer-domain-without-max')).toContain("Property 'max' is missing");
  });

  it('makes every consumer table keyed by a tag incomplete when a tag is added', () => {
    expect(errorsOf('new-coercion')).toContain("Property 'color' is missing");
  });
});

describe('OPERATORS', () => {
  it('accepts a new operator with SQL for every database', () => {
    expect(errorsOf('complete-operator')).toBe('');
  });

  it('refuses a new operator without the SQL of one database', () => {
    expect(errorsOf('operator-without-mysql')).toContain("Property 'mysql' is missing");
  });

  it.each(OPERATOR_PARTS)('refuses a new operator without %s', (part) => {
    expect(errorsOf(`operator-without-${part}`)).toContain(`Property '${part}' is missing`);
  });

  it('refuses a database without every operator once it joins DatabaseKind', () => {
    expect(errorsOf('new-database')).toContain("Property 'oracle' is missing");
  });
});
