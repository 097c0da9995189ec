/**
 * Hostile requests drawn from the model, for the fuzz test: REST query strings built from each
 * type's attributes, operators and paths through relations; JSON bodies shaped like each type's
 * attributes (with values of every wrong type, out of every column's range, NULs, deep nesting,
 * relation and media references that exist, were deleted or never existed); multipart uploads;
 * GraphQL documents and variables built from the served SDL's root fields and input types.
 */
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Seeded } from '../../templates/runtime/engine/test-seed.ts';
import type { ContentTypeSchema, Field, ModelSchema } from '../../templates/runtime/schema.ts';

export interface FuzzRequest {
  readonly kind: 'rest-query' | 'rest-body' | 'multipart' | 'graphql';
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** A JSON body (already serialized: it may be deliberately malformed) or a multipart form. */
  readonly body?: string | { readonly form: readonly FormPart[] };
}

export type FormPart = { readonly name: string; readonly value: string } | { readonly name: string; readonly file: { readonly bytes: Uint8Array; readonly filename: string; readonly type: string } };

/** encodeURIComponent, with lone surrogates (which it refuses) made well-formed first. */
function enc(value: string): string {
  return encodeURIComponent(value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** Strings every column or parser has to survive. */
const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%',
  '%00',
  '%E0%A4%A',
  '_',
  "'",
  '"',
  '\\',
  '😀',
  '\uD800',
  'ǅ',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
];
/** Numbers at and past every column's edges, as JSON numbers (2^53 + 1 on purpose: it parses as 2^53). */
// eslint-disable-next-line no-loss-of-precision -- the literal a client would send
const HOSTILE_NUMBERS = [0, -0, 1, -1, 0.5, 2147483647, 2147483648, -2147483648, -2147483649, 9007199254740993, 1e20, -1e20, 1e35, 1e300, -1e300, 5e-324, 1.7976931348623157e308];
/** The same as query-string spellings, with what only text can spell. */
const HOSTILE_NUMBER_TEXT = [
  ...HOSTILE_NUMBERS.map(String),
  '.5',
  '1e400',
  '-1e400',
  'NaN',
  'Infinity',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999999999999999999999999',
  '0x10',
  '1_000',
  ' 1 ',
];
const HOSTILE_TEMPORAL = [
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '10000-01-01',
  '-000001-01-01',
  '2024-02-30',
  '2024-13-01',
  '275760-09-13',
  '253402300800000',
  '8640000000000001',
  '2024-01-01T24:00:00Z',
  '2024-01-01T10:00:00+25:00',
  '23:59:59.999',
  '24:00:00',
  '1970-01-01T00:00:00.000Z',
];

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_TEXT, ...HOSTILE_NUMBERS, ...HOSTILE_TEMPORAL, true, false, null, [], {}, [null], { id: 1 }),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);
const queryText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT.filter((t) => t.length < 100), ...HOSTILE_NUMBER_TEXT, ...HOSTILE_TEMPORAL),
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);

/** A JSON value nested `depth` levels (as text: JSON.stringify itself overflows on deep values). */
function deepJsonText(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}
const DEEP = '__DEEP__';

const SYSTEM_KEYS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations', 'createdBy', '__proto__', 'constructor', 'unknownKey', '', '$eq'];
const OPERATORS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi', '$startsWith', '$endsWith', '$null', '$notNull', '$between'];

export class FuzzModel {
  readonly collections: readonly ContentTypeSchema[];
  readonly singles: readonly ContentTypeSchema[];
  readonly documentIds: readonly string[];
  readonly fileIds: readonly number[];
  readonly schema: GraphQLSchema;
  /** Attribute name → scalar type, across the model (names reused with another type are rare and harmless here). */
  readonly scalarTypes = new Map<string, string>();

  constructor(
    readonly model: ModelSchema,
    readonly seeded: Seeded,
    sdl: string,
    /** Seeded documentIds by content-type uid: ids of the right type reach further than 404. */
    readonly documents: Readonly<Record<string, readonly string[]>> = {},
  ) {
    const types = Object.values(model.contentTypes);
    this.collections = types.filter((t) => t.kind === 'collectionType');
    this.singles = types.filter((t) => t.kind === 'singleType');
    this.documentIds = Object.values(seeded.doc);
    this.fileIds = Object.values(seeded.file);
    this.schema = buildSchema(sdl);
    for (const owner of [...types, ...Object.values(model.components)]) {
      for (const [name, field] of Object.entries(owner.attributes)) if (field.kind === 'scalar') this.scalarTypes.set(name, field.type);
    }
    for (const [name, type] of [
      ['id', 'integer'],
      ['createdAt', 'datetime'],
      ['size', 'decimal'],
      ['width', 'integer'],
    ] as const)
      this.scalarTypes.set(name, type);
  }

  /** Attribute paths to filter or sort by: scalars, and scalars one relation or component away. */
  paths(type: { readonly attributes: Readonly<Record<string, Field>>; readonly localized?: boolean }, depth = 1): string[] {
    const out: string[] = ['id', 'documentId', 'createdAt', ...(type.localized === true ? ['locale'] : [])];
    for (const [name, field] of Object.entries(type.attributes)) {
      if (field.kind === 'scalar') out.push(name);
      if (depth === 0) continue;
      const inner = field.kind === 'relation' ? this.model.contentTypes[field.target] : field.kind === 'component' ? this.model.components[field.component] : undefined;
      if (inner !== undefined) out.push(...this.paths(inner, depth - 1).map((p) => `${name}.${p}`));
      if (field.kind === 'media') out.push(`${name}.name`, `${name}.size`, `${name}.width`);
    }
    return out;
  }

  // ---------------------------------------------------------------- REST query strings

  /** A plausible value for the last attribute of a path (by its name's type anywhere in the model), or a hostile one. */
  queryValue(path: string): fc.Arbitrary<string> {
    const type = this.scalarTypes.get(path.split('.').at(-1) ?? '');
    const plausible: fc.Arbitrary<string> =
      type === 'integer' || type === 'float' || type === 'decimal' || type === 'biginteger'
        ? fc.integer({ min: -5, max: 30 }).map(String)
        : type === 'boolean'
          ? fc.constantFrom('true', 'false')
          : type === 'date' || type === 'datetime' || type === 'timestamp'
            ? fc.constantFrom('2024-01-01', '2024-05-01T10:00:00.000Z', '2030-12-31')
            : type === 'time'
              ? fc.constantFrom('09:00', '12:30:00.000')
              : fc.constantFrom('a', 'Ada', 'news', 'hello-world', 'Widget', 'en');
    return fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: queryText });
  }

  query(type: ContentTypeSchema): fc.Arbitrary<string> {
    const paths = this.paths(type);
    const path = fc.constantFrom(...paths);
    const brackets = (p: string): string =>
      p
        .split('.')
        .map((k) => `[${k}]`)
        .join('');
    const filter = fc
      .tuple(path, fc.constantFrom(...OPERATORS, ''), fc.option(fc.nat({ max: 2 }), { nil: undefined }))
      .chain(([p, op, index]) => this.queryValue(p).map((value) => [p, op, index, value] as const))
      .map(([p, op, index, value]) => `filters${brackets(p)}${op === '' ? '' : `[${op}]`}${index === undefined ? '' : `[${index}]`}=${enc(value)}`);
    const logical = fc.tuple(fc.constantFrom('$and', '$or', '$not'), fc.nat({ max: 3 }), path, queryText).map(([op, index, p, value]) => `filters[${op}][${index}]${brackets(p)}[$eq]=${enc(value)}`);
    const sort = fc.tuple(path, fc.constantFrom('asc', 'desc', 'asc', 'desc', 'ASC', 'up', '')).map(([p, d]) => `sort=${enc(d === '' ? p : `${p}:${d}`)}`);
    const pagination = fc.tuple(fc.constantFrom('page', 'pageSize', 'start', 'limit', 'withCount'), queryText).map(([k, v]) => `pagination[${k}]=${enc(v)}`);
    const populate = fc.oneof(
      fc.constantFrom('populate=*', 'populate[0]=*', 'populate=%00'),
      fc.tuple(fc.constantFrom(...Object.keys(type.attributes)), path).map(([a, p]) => `populate[${a}][filters]${brackets(p)}[$eq]=1`),
      fc.tuple(fc.constantFrom(...Object.keys(type.attributes)), path, fc.constantFrom('asc', 'desc')).map(([a, p, d]) => `populate[${a}][sort]=${enc(`${p}:${d}`)}`),
    );
    const other = fc.oneof(
      fc.tuple(fc.constantFrom('locale', 'status', 'fields[0]', '_q', 'publicationFilter'), queryText).map(([k, v]) => `${k}=${enc(v)}`),
      fc.constantFrom('locale=*', 'locale=fr', 'status=draft', 'status=published'),
      fc.nat({ max: 12 }).map((n) => `filters${'[$and][0]'.repeat(n)}[id]=1`),
    );
    return fc.array(fc.oneof(filter, logical, sort, pagination, populate, other), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('&'));
  }

  restQuery(): fc.Arbitrary<FuzzRequest> {
    const collection = fc.constantFrom(...this.collections).chain((type) =>
      fc.tuple(fc.option(this.documentRef(type.uid), { nil: undefined }), this.query(type)).map(([id, qs]): FuzzRequest => ({
        kind: 'rest-query',
        method: 'GET',
        path: `/api/${type.pluralName}${id === undefined ? '' : `/${enc(id)}`}?${qs}`,
      })),
    );
    const single = fc.constantFrom(...this.singles).chain((type) => this.query(type).map((qs): FuzzRequest => ({ kind: 'rest-query', method: 'GET', path: `/api/${type.singularName}?${qs}` })));
    const files = fc.tuple(fc.option(this.fileRef(), { nil: undefined }), queryText).map(([id, v]): FuzzRequest => ({
      kind: 'rest-query',
      method: 'GET',
      path: `/api/upload/files${id === undefined ? '' : `/${enc(String(id))}`}?filters[size][$gt]=${enc(v)}&sort=size:desc`,
    }));
    return fc.oneof({ weight: 4, arbitrary: collection }, { weight: 1, arbitrary: single }, { weight: 1, arbitrary: files });
  }

  documentRef(uid?: string): fc.Arbitrary<string> {
    const own = uid === undefined ? [] : (this.documents[uid] ?? []);
    return fc.oneof(
      { weight: own.length > 0 ? 12 : 0, arbitrary: own.length > 0 ? fc.constantFrom(...own) : fc.constant('') },
      { weight: 6, arbitrary: fc.constantFrom(...this.documentIds) },
      { weight: 1, arbitrary: fc.constantFrom('a\u0000b', 'x'.repeat(300), '%', '0', '2147483648', 'constructor') },
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    );
  }

  fileRef(): fc.Arbitrary<unknown> {
    return fc.oneof(fc.constantFrom(...this.fileIds), fc.constantFrom<unknown>(0, -1, 2147483647, 2147483648, 1e300, '1', '1.5', 'a\u0000', { id: 1 }, { id: 2147483648 }, null, []));
  }

  // ---------------------------------------------------------------- JSON bodies

  /** A value for one attribute: mostly well-formed, often hostile. */
  value(field: Field, depth: number): fc.Arbitrary<unknown> {
    switch (field.kind) {
      case 'scalar': {
        const deep = field.type === 'json' || field.type === 'blocks' ? [fc.constant(DEEP)] : [];
        const typed = field.type === 'enumeration' && field.enum !== undefined && field.enum.length > 0 ? [fc.constantFrom(...field.enum)] : [];
        return fc.oneof(hostileScalar, ...typed, ...deep);
      }
      case 'relation': {
        const ref = this.documentRef(field.target);
        const ids = fc.array(ref, { maxLength: 3 });
        return fc.oneof(
          ref,
          ids,
          fc.record({ connect: ids }, { requiredKeys: [] }),
          fc.record({ disconnect: ids, set: ids }, { requiredKeys: [] }),
          fc.record({
            connect: fc.array(
              fc.record({ documentId: ref, locale: fc.constantFrom('en', 'fr', 'a\u0000'), position: fc.record({ before: ref, start: fc.boolean() }, { requiredKeys: [] }) }, { requiredKeys: [] }),
              { maxLength: 2 },
            ),
          }),
          hostileScalar,
        );
      }
      case 'media':
        return fc.oneof(this.fileRef(), fc.array(this.fileRef(), { maxLength: 3 }));
      case 'component': {
        const schema = this.model.components[field.component];
        if (schema === undefined || depth > 2) return hostileScalar;
        const item = this.object(schema.attributes, depth + 1);
        return field.repeatable ? fc.oneof(fc.array(item, { maxLength: 3 }), item, hostileScalar) : fc.oneof(item, fc.array(item, { maxLength: 2 }), hostileScalar);
      }
      case 'dynamiczone': {
        const entries = field.components.map((uid) => {
          const schema = this.model.components[uid];
          return schema === undefined ? fc.constant({ __component: uid }) : this.object(schema.attributes, depth + 1).map((entry) => ({ __component: uid, ...entry }));
        });
        const entry = fc.oneof(...entries, fc.record({ __component: fc.constantFrom('nope.nope', 'a\u0000', '') }));
        return fc.oneof(fc.array(entry, { maxLength: 3 }), hostileScalar);
      }
    }
  }

  object(attributes: Readonly<Record<string, Field>>, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const names = Object.keys(attributes);
    const known = fc
      .uniqueArray(fc.constantFrom(...names), { maxLength: Math.min(names.length, 5) })
      .chain((chosen) => fc.tuple(...chosen.map((name) => this.value(attributes[name] as Field, depth))).map((values) => Object.fromEntries(chosen.map((name, i) => [name, values[i]]))));
    // Keys that are not attributes, or are system fields a body may not set.
    const foreign = fc.dictionary(fc.constantFrom(...SYSTEM_KEYS), hostileScalar, { maxKeys: 2 });
    return fc.tuple(known, fc.option(foreign, { freq: 5, nil: undefined })).map(([data, extra]) => (extra === undefined ? data : { ...extra, ...data }));
  }

  body(type: ContentTypeSchema): fc.Arbitrary<string> {
    return fc.oneof(
      { weight: 8, arbitrary: this.object(type.attributes, 0).map((data) => serialize({ data })) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          '{',
          '{"data":',
          'null',
          '[]',
          '{"data":null}',
          '{"data":[]}',
          '{"data":"x"}',
          `{"data":${deepJsonText(5000, 'object')}}`,
          `{"data":{"a":${deepJsonText(20000, 'array')}}}`,
          '{"data":{"__proto__":{"x":1}}}',
        ),
      },
    );
  }

  restBody(): fc.Arbitrary<FuzzRequest> {
    const status = fc.constantFrom('', '?status=draft', '?status=published', '?locale=fr', '?locale=a%00', '?status=draft&locale=fr', '?locale=*', '?locale=xx', '?status=draft&locale=en');
    const create = fc
      .constantFrom(...this.collections)
      .chain((type) => fc.tuple(this.body(type), status).map(([body, s]): FuzzRequest => ({ kind: 'rest-body', method: 'POST', path: `/api/${type.pluralName}${s}`, body })));
    const update = fc
      .constantFrom(...this.collections)
      .chain((type) =>
        fc.tuple(this.documentRef(type.uid), this.body(type), status).map(([id, body, s]): FuzzRequest => ({ kind: 'rest-body', method: 'PUT', path: `/api/${type.pluralName}/${enc(id)}${s}`, body })),
      );
    const single = fc
      .constantFrom(...this.singles)
      .chain((type) => fc.tuple(this.body(type), status).map(([body, s]): FuzzRequest => ({ kind: 'rest-body', method: 'PUT', path: `/api/${type.singularName}${s}`, body })));
    const remove = fc
      .constantFrom(...this.collections)
      .chain((type) => fc.tuple(fc.constant(type), this.documentRef(type.uid), status))
      .map(([type, id, s]): FuzzRequest => ({ kind: 'rest-body', method: 'DELETE', path: `/api/${type.pluralName}/${enc(id)}${s}` }));
    const removeSingle = fc.tuple(fc.constantFrom(...this.singles), status).map(([type, s]): FuzzRequest => ({ kind: 'rest-body', method: 'DELETE', path: `/api/${type.singularName}${s}` }));
    return fc.oneof({ weight: 3, arbitrary: create }, { weight: 3, arbitrary: update }, { weight: 1, arbitrary: single }, { weight: 1, arbitrary: remove }, { weight: 1, arbitrary: removeSingle });
  }

  // ---------------------------------------------------------------- multipart

  multipart(): fc.Arbitrary<FuzzRequest> {
    const png = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc0000003010100c9fe92ef0000000049454e44ae426082', 'hex'));
    const bytes = fc.oneof(fc.constant(png), fc.constant(png.slice(0, 30)), fc.uint8Array({ maxLength: 64 }), fc.constant(new Uint8Array()));
    const file = fc.record({
      bytes,
      filename: fc.oneof(fc.constantFrom('a.png', '../../etc/passwd', 'a\u0000.png', '.png', 'x'.repeat(300), '😀.jpg'), fc.string({ maxLength: 12 })),
      type: fc.constantFrom('image/png', 'image/jpeg', 'application/octet-stream', 'text/html', 'image/svg+xml', ''),
    });
    const info = fc.oneof(
      fc.record({ name: hostileScalar, alternativeText: hostileScalar, caption: hostileScalar }, { requiredKeys: [] }).map(serialize),
      fc.constantFrom('{', '[]', '[{},{}]', 'null', '"x"', '{"name":"a\\u0000b"}', deepJsonText(5000, 'object')),
    );
    const upload = fc.tuple(fc.array(file, { maxLength: 2 }), fc.option(info, { nil: undefined }), fc.option(this.fileRef(), { nil: undefined })).map(([files, fileInfo, id]): FuzzRequest => ({
      kind: 'multipart',
      method: 'POST',
      path: id === undefined ? '/api/upload' : `/api/upload?id=${enc(String(id))}`,
      body: {
        form: [...files.map((f): FormPart => ({ name: 'files', file: f })), ...(fileInfo === undefined ? [] : [{ name: 'fileInfo', value: fileInfo }])],
      },
    }));
    const remove = this.fileRef().map((id): FuzzRequest => ({ kind: 'multipart', method: 'DELETE', path: `/api/upload/files/${enc(String(id))}` }));
    return fc.oneof({ weight: 4, arbitrary: upload }, { weight: 1, arbitrary: remove });
  }

  // ---------------------------------------------------------------- GraphQL

  graphql(): fc.Arbitrary<FuzzRequest> {
    const query = this.schema.getQueryType();
    const mutation = this.schema.getMutationType();
    const roots: { operation: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> }[] = [
      ...Object.values(query?.getFields() ?? {}).map((field) => ({ operation: 'query' as const, field })),
      ...Object.values(mutation?.getFields() ?? {}).map((field) => ({ operation: 'mutation' as const, field })),
    ];
    const operation = fc.constantFrom(...roots).chain(({ operation, field }) =>
      fc.tuple(...field.args.map((arg) => fc.option(this.input(arg.type, 0), { nil: undefined, freq: isNonNullType(arg.type) ? 10 : 2 })), fc.boolean()).map((values) => {
        const asVariables = values.pop() as boolean;
        const args = field.args.map((arg, i) => ({ name: arg.name, type: String(arg.type), value: values[i] })).filter((a) => a.value !== undefined);
        const selection = this.selection(field);
        if (asVariables) {
          const defs = args.map((a) => `$${a.name}: ${a.type}`).join(', ');
          const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
          const document = `${operation}${defs === '' ? '' : `(${defs})`} { ${field.name}${call === '' ? '' : `(${call})`}${selection} }`;
          return { query: document, variables: Object.fromEntries(args.map((a) => [a.name, a.value])) };
        }
        const call = args.map((a) => `${a.name}: ${literal(a.value)}`).join(', ');
        return { query: `${operation} { ${field.name}${call === '' ? '' : `(${call})`}${selection} }` };
      }),
    );
    const oddities = fc.constantFrom(
      { query: 'subscription { articles { title } }' },
      { query: '{ articles { title } } subscription S { tags { name } }', operationName: 'S' },
      { query: '{ __typename' },
      { query: `{ articles(filters: ${'{ and: ['.repeat(3000)}{}${'] }'.repeat(3000)}) { title } }` },
      { query: `{ articles(filters: ${'{ and: ['.repeat(150)}{}${'] }'.repeat(150)}) { title } }` },
      { query: 'query($f: ArticleFiltersInput) { articles(filters: $f) { title } }', variables: { f: DEEP } },
      {
        query: `query(${Array.from({ length: 60 }, (_, i) => `$v${i}: Int`).join(', ')}) { articles(filters: { readingTime: { in: [${Array.from({ length: 60 }, (_, i) => `$v${i}`).join(', ')}] } }) { title } }`,
        variables: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`v${i}`, 'x'])),
      },
      { query: '{ article(documentId: "a\\u0000") { title } }' },
      { query: 'mutation { createArticle(status: DRAFT, data: {}) { documentId title slug } }' },
    );
    return fc.oneof({ weight: 9, arbitrary: operation }, { weight: 1, arbitrary: oddities }).map((payload): FuzzRequest => ({
      kind: 'graphql',
      method: 'POST',
      path: '/graphql',
      body: serialize(payload),
    }));
  }

  /** A value for a GraphQL input type: often valid, often not. */
  input(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
    if (isNonNullType(type)) return this.input(type.ofType, depth);
    if (isListType(type)) return fc.oneof(fc.array(this.input(type.ofType, depth + 1), { maxLength: 3 }), this.input(type.ofType, depth + 1));
    const named = getNamedType(type);
    if (isEnumType(named)) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...named.getValues().map((v) => v.name)) }, { weight: 1, arbitrary: hostileScalar });
    if (isInputObjectType(named)) {
      if (depth > 3) return fc.constant({});
      const fields = Object.values(named.getFields());
      return fc
        .uniqueArray(fc.constantFrom(...fields), { maxLength: Math.min(3, fields.length), selector: (f) => f.name })
        .chain((chosen) => fc.tuple(...chosen.map((f) => this.input(f.type, depth + 1))).map((values) => Object.fromEntries(chosen.map((f, i) => [f.name, values[i]]))));
    }
    if (isScalarType(named)) {
      if (named.name === 'ID') return fc.oneof(this.documentRef(), fc.constantFrom(...this.fileIds.map(String), '2147483648', '-1', '0'));
      if (named.name === 'Int') return fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.integer());
      if (named.name === 'Boolean') return fc.oneof({ weight: 5, arbitrary: fc.boolean() }, { weight: 1, arbitrary: hostileScalar });
      return hostileScalar;
    }
    return hostileScalar;
  }

  /** A few scalar fields of the result (and `documentId` of `nodes` for connections). */
  selection(field: GraphQLField<unknown, unknown>): string {
    const type = getNamedType(field.type);
    if (!isObjectType(type)) return '';
    const scalars = (object: GraphQLObjectType): string[] =>
      Object.values(object.getFields())
        .filter((f) => {
          const named = getNamedType(f.type);
          return (isScalarType(named) || isEnumType(named)) && f.args.length === 0;
        })
        .map((f) => f.name);
    const own = scalars(type);
    if (own.length > 0) return ` { ${own.join(' ')} }`;
    const nodes = type.getFields().nodes;
    const nodeType = nodes === undefined ? undefined : getNamedType(nodes.type);
    if (nodeType !== undefined && isObjectType(nodeType)) return ` { nodes { ${scalars(nodeType).join(' ')} } }`;
    return ' { __typename }';
  }

  any(): fc.Arbitrary<FuzzRequest> {
    return fc.oneof({ weight: 3, arbitrary: this.restQuery() }, { weight: 3, arbitrary: this.restBody() }, { weight: 1, arbitrary: this.multipart() }, { weight: 3, arbitrary: this.graphql() });
  }
}

/** JSON with the deep-value marker replaced by a value nested far past every limit. */
function serialize(value: unknown): string {
  return JSON.stringify(value).replaceAll(JSON.stringify(DEEP), deepJsonText(5000, 'object'));
}

/** A GraphQL literal for a JSON-like value; strings that look like enum names stay strings. */
function literal(value: unknown): string {
  if (value === DEEP) return `${'{ a: '.repeat(200)}1${' }'.repeat(200)}`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    return `{ ${Object.entries(value as Record<string, unknown>)
      .filter(([key]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(key))
      .map(([key, inner]) => `${key}: ${literal(inner)}`)
      .join(', ')} }`;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
  if (typeof value === 'string' && /^[A-Z][A-Z_]*$/.test(value)) return value;
  return JSON.stringify(value) ?? 'null';
}
