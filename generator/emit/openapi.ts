/**
 * Emits the OpenAPI 3.1 document of a generated project's REST API (openapi.json, served at
 * /api/openapi.json): every content type's routes, the query parameters in Strapi's bracket
 * notation (deepObject), entry, list and error envelopes, the upload routes, users-permissions'
 * sign-in routes and the two bearer schemes (API token, user JWT). Schemas are JSON Schema
 * 2020-12, as OpenAPI 3.1 takes them; entries refuse properties they do not declare
 * (`unevaluatedProperties: false`), so a private attribute in an answer fails validation.
 *
 * A pure function of the model.
 */
import { OPERATOR_NAMES, OPERATOR_SPECS, LOGICAL_OPERATORS } from '../../templates/contract/operators.ts';
import { SCALAR_TYPE_NAMES, SCALAR_TYPE_SPECS } from '../../templates/contract/scalar-types.ts';
import type { Attribute, ContentType, Model, ScalarType } from '../model/types.ts';
import {
  FILE_SCALARS,
  idFields,
  isContentType,
  populatables,
  publicAttributes,
  requiredOnCreate,
  responseScalars,
  routedTypes,
  UPLOAD_FILE_UID,
  USER_UID,
  type Owner,
  type ResponseScalar,
} from './api-shape.ts';

export { OPENAPI_FILE as OPENAPI_PATH } from '../../templates/runtime/openapi/file.ts';

type Schema = Readonly<Record<string, unknown>>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** The `filters` parameter, with every operator of the contract's OPERATORS table. */
const FILTERS_DESCRIPTION = `Per attribute and operator (${OPERATOR_NAMES.map((name) => `\`${OPERATOR_SPECS[name].rest}\``).join(', ')}), combined with ${Object.values(LOGICAL_OPERATORS)
  .map((op) => `\`${op.rest}\``)
  .join(', ')}.`;

/** JSON Schema of a scalar's answer, and what a write takes (the contract's SCALAR_TYPES `jsonSchema`). */
const RESPONSE_SCHEMA = schemaTable('response');
const INPUT_SCHEMA = schemaTable('input');

function schemaTable(side: 'response' | 'input'): Readonly<Record<ScalarType, Schema>> {
  return Object.fromEntries(SCALAR_TYPE_NAMES.map((type) => [type, structuredClone(SCALAR_TYPE_SPECS[type].jsonSchema[side]) as Schema])) as Record<ScalarType, Schema>;
}

function scalarSchema(scalar: { type: ScalarType; enum?: readonly string[] | undefined }, table: Readonly<Record<ScalarType, Schema>>): Schema {
  if (scalar.type === 'enumeration' && scalar.enum !== undefined && scalar.enum.length > 0) return { type: 'string', enum: [...scalar.enum] };
  return table[scalar.type];
}

function responseProperty(scalar: ResponseScalar): Schema {
  const schema = scalarSchema(scalar, RESPONSE_SCHEMA);
  if (!scalar.nullable || Object.keys(schema).length === 0) return schema;
  return nullable(schema);
}

/** Component and schema names: `Article`, `ComponentSharedSeo`, `UploadFile`. */
function schemaName(uid: string, index: ReadonlyMap<string, Owner>): string {
  if (uid === UPLOAD_FILE_UID) return 'UploadFile';
  return (index.get(uid) as Owner).names.tsType;
}

function entrySchema(owner: Owner, index: ReadonlyMap<string, Owner>): Schema {
  const ids = idFields(owner);
  const properties: Record<string, Schema> = {};
  for (const scalar of [...ids, ...responseScalars(owner)]) properties[scalar.name] = responseProperty(scalar);
  const links = populatables(owner);
  for (const link of [...links.relations, ...links.components]) {
    const target = ref(schemaName(link.target, index));
    properties[link.name] = link.many ? { type: 'array', items: target } : nullable(target);
  }
  for (const zone of links.zones) {
    properties[zone.name] = {
      type: 'array',
      items: { anyOf: zone.components.map((c) => ({ ...ref(schemaName(c, index)), required: ['__component'], properties: { __component: { const: c } } })) },
    };
  }
  // A component instance carries its uid in a dynamic zone.
  if (!isContentType(owner)) properties.__component = { type: 'string' };
  return {
    type: 'object',
    description: isContentType(owner) ? `${owner.displayName} (${owner.uid}). Relations, media, components and dynamic zones are present when populated.` : `Component ${owner.uid}.`,
    required: ids.map((s) => s.name),
    properties,
    unevaluatedProperties: false,
  };
}

const FILE_SCHEMA: Schema = {
  type: 'object',
  description: 'A media library file.',
  required: ['id', 'documentId'],
  properties: {
    ...Object.fromEntries([...idFields('file'), ...FILE_SCALARS].map((s) => [s.name, responseProperty(s)])),
    isUrlSigned: { type: 'boolean', description: 'Answered by the upload routes.' },
    related: { type: 'array', items: { type: 'object' }, description: 'The entries using the file, with populate=related.' },
  },
  unevaluatedProperties: false,
};

const DOCUMENT_REF: Schema = {
  anyOf: [
    { type: 'string', description: 'documentId' },
    { type: 'integer', description: 'row id' },
    { type: 'object', required: ['documentId'], properties: { documentId: { type: 'string' }, locale: { type: 'string' }, status: { enum: ['draft', 'published'] } } },
    { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
  ],
};

const RELATION_OPERATIONS: Schema = {
  type: 'object',
  properties: { connect: {}, disconnect: {}, set: {}, options: { type: 'object', properties: { strict: { type: 'boolean' } } } },
  additionalProperties: false,
};

const MEDIA_REF: Schema = { anyOf: [{ type: 'integer' }, { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }] };

function inputProperty(attribute: Attribute, index: ReadonlyMap<string, Owner>): Schema {
  switch (attribute.kind) {
    case 'scalar':
      // A required attribute cannot be emptied.
      return attribute.required ? scalarSchema(attribute, INPUT_SCHEMA) : nullable(scalarSchema(attribute, INPUT_SCHEMA));
    case 'media':
      return attribute.multiple ? { anyOf: [{ type: 'array', items: MEDIA_REF }, { type: 'null' }, RELATION_OPERATIONS] } : nullable(MEDIA_REF);
    case 'relation':
      return attribute.cardinality === 'many'
        ? { anyOf: [{ type: 'array', items: DOCUMENT_REF }, DOCUMENT_REF, RELATION_OPERATIONS] }
        : { anyOf: [DOCUMENT_REF, { type: 'null' }, RELATION_OPERATIONS] };
    case 'component': {
      const one = ref(`${schemaName(attribute.component, index)}Input`);
      return attribute.repeatable ? { type: 'array', items: one } : nullable(one);
    }
    case 'dynamiczone':
      return {
        type: 'array',
        items: { anyOf: attribute.components.map((c) => ({ ...ref(`${schemaName(c, index)}Input`), required: ['__component'], properties: { __component: { const: c } } })) },
      };
  }
}

function inputSchema(owner: Owner, index: ReadonlyMap<string, Owner>, create: boolean): Schema {
  const attributes = publicAttributes(owner);
  const required = create ? attributes.filter((a) => requiredOnCreate(a)).map((a) => a.name) : [];
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(attributes.map((a) => [a.name, inputProperty(a, index)])),
      ...(isContentType(owner) ? {} : { id: { type: 'integer', description: 'Updates this instance in place.' }, __component: { type: 'string' } }),
    },
    ...(required.length > 0 ? { required } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Parameters and responses
// ---------------------------------------------------------------------------------------------

const deepObject = (name: string, description: string, schema: Schema, example?: Schema): Schema => ({
  name,
  in: 'query',
  required: false,
  style: 'deepObject',
  explode: true,
  description,
  schema,
  ...(example === undefined ? {} : { example }),
});

const PARAMETERS: Readonly<Record<string, Schema>> = {
  populate: deepObject(
    'populate',
    'Relations, media, components and dynamic zones to include: `*`, a name, a list, or an object with nested `populate`, `fields`, `filters`, `sort` and dynamic-zone `on`.',
    {
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }],
    },
  ),
  filters: deepObject('filters', FILTERS_DESCRIPTION, { type: 'object' }),
  sort: deepObject('sort', '`field`, `field:asc`, `field:desc`, or a list of them.', { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
  // The example is what Swagger UI's "Try it out" fills in: without it, a sample of every
  // property, pages and offsets together, which the API refuses (400).
  pagination: deepObject(
    'pagination',
    '`page` and `pageSize`, or `start` and `limit` (not both); `withCount`.',
    {
      type: 'object',
      properties: {
        page: { type: 'integer', minimum: 1 },
        pageSize: { type: 'integer', minimum: 1 },
        start: { type: 'integer', minimum: 0 },
        limit: { type: 'integer' },
        withCount: { type: 'boolean' },
      },
    },
    { page: 1, pageSize: 25 },
  ),
  fields: deepObject('fields', 'Scalar attributes to return (id and documentId always are).', { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }),
  status: { name: 'status', in: 'query', required: false, description: 'Which version: draft or published (the default).', schema: { type: 'string', enum: ['draft', 'published'] } },
  locale: { name: 'locale', in: 'query', required: false, description: 'Locale code.', schema: { type: 'string' } },
};

const param = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });

function readParameters(type: ContentType, list: boolean): Schema[] {
  const names = list ? ['populate', 'filters', 'sort', 'pagination', 'fields'] : ['populate', 'fields'];
  if (type.draftAndPublish) names.push('status');
  if (type.localized) names.push('locale');
  return names.map(param);
}

function writeParameters(type: ContentType): Schema[] {
  return ['populate', 'fields', ...(type.draftAndPublish ? ['status'] : []), ...(type.localized ? ['locale'] : [])].map(param);
}

const json = (schema: Schema, description: string): Schema => ({ description, content: { 'application/json': { schema } } });

const ERRORS = (...statuses: number[]): Record<string, Schema> => Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]));

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid query or body (ValidationError)',
  401: 'Invalid or expired credentials (UnauthorizedError)',
  403: 'The role may not do this (ForbiddenError)',
  404: 'No such document (NotFoundError)',
  429: 'Too many sign-in attempts (RateLimitError)',
};

const body = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });

function typeOperations(type: ContentType): Record<string, Record<string, Schema>> {
  const name = type.names.tsType;
  const tag = [type.displayName];
  const data = (input: string): Schema => body({ type: 'object', required: ['data'], properties: { data: ref(input) } });
  const versionParams = (type.draftAndPublish ? ['status'] : []).concat(type.localized ? ['locale'] : []).map(param);
  if (type.kind === 'singleType') {
    return {
      [`/${type.singularName}`]: {
        get: {
          tags: tag,
          operationId: `find${name}`,
          summary: `The ${type.displayName} document`,
          parameters: readParameters(type, false),
          responses: { '200': json(ref(`${name}Response`), 'The document'), ...ERRORS(400, 401, 403, 404) },
        },
        put: {
          tags: tag,
          operationId: `update${name}`,
          summary: `Create or update the ${type.displayName} document`,
          parameters: writeParameters(type),
          requestBody: data(`${name}UpdateInput`),
          responses: { '200': json(ref(`${name}Response`), 'The document as written'), ...ERRORS(400, 401, 403) },
        },
        delete: {
          tags: tag,
          operationId: `delete${name}`,
          summary: `Delete the ${type.displayName} document`,
          parameters: versionParams,
          responses: { '204': { description: 'Deleted' }, ...ERRORS(400, 401, 403, 404) },
        },
      },
    };
  }
  const documentId = { name: 'documentId', in: 'path', required: true, schema: { type: 'string' } };
  return {
    [`/${type.pluralName}`]: {
      get: {
        tags: tag,
        operationId: `find${name}List`,
        summary: `List ${type.displayName} documents`,
        parameters: readParameters(type, true),
        responses: { '200': json(ref(`${name}ListResponse`), 'A page of documents'), ...ERRORS(400, 401, 403) },
      },
      post: {
        tags: tag,
        operationId: `create${name}`,
        summary: `Create a ${type.displayName} document`,
        parameters: writeParameters(type),
        requestBody: data(`${name}Input`),
        responses: { '201': json(ref(`${name}Response`), 'The created document'), ...ERRORS(400, 401, 403) },
      },
    },
    [`/${type.pluralName}/{documentId}`]: {
      get: {
        tags: tag,
        operationId: `find${name}`,
        summary: `One ${type.displayName} document`,
        parameters: [documentId, ...readParameters(type, false)],
        responses: { '200': json(ref(`${name}Response`), 'The document'), ...ERRORS(400, 401, 403, 404) },
      },
      put: {
        tags: tag,
        operationId: `update${name}`,
        summary: `Update a ${type.displayName} document`,
        parameters: [documentId, ...writeParameters(type)],
        requestBody: data(`${name}UpdateInput`),
        responses: { '200': json(ref(`${name}Response`), 'The document as written'), ...ERRORS(400, 401, 403, 404) },
      },
      delete: {
        tags: tag,
        operationId: `delete${name}`,
        summary: `Delete a ${type.displayName} document`,
        parameters: [documentId, ...versionParams],
        responses: { '204': { description: 'Deleted' }, ...ERRORS(400, 401, 403, 404) },
      },
    },
  };
}

const FILE_INFO: Schema = {
  type: 'object',
  properties: { name: { type: 'string' }, alternativeText: { anyOf: [{ type: 'string' }, { type: 'null' }] }, caption: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
};

function uploadOperations(): Record<string, Record<string, Schema>> {
  const tags = ['Upload'];
  const fileId = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
  const files = { type: 'array', items: ref('UploadFile') };
  return {
    '/upload': {
      post: {
        tags,
        operationId: 'uploadFiles',
        summary: 'Upload files, or with `id` change one file (its info, or the file itself)',
        parameters: [{ name: 'id', in: 'query', required: false, description: 'The file to change.', schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  files: { type: 'array', items: { type: 'string', format: 'binary' } },
                  fileInfo: { type: 'string', description: 'JSON: one FileInfo, or a list of one per file.', contentMediaType: 'application/json' },
                },
              },
            },
          },
        },
        responses: { '201': json(files, 'The uploaded files'), '200': json(ref('UploadFile'), 'The changed file (with `id`)'), ...ERRORS(400, 401, 403, 404) },
      },
    },
    '/upload/files': {
      get: {
        tags,
        operationId: 'findFiles',
        summary: 'List media library files',
        parameters: ['populate', 'filters', 'sort', 'pagination', 'fields'].map(param),
        responses: { '200': json(files, 'The files'), ...ERRORS(400, 401, 403) },
      },
    },
    '/upload/files/{id}': {
      get: { tags, operationId: 'findFile', summary: 'One file', parameters: [fileId, param('populate')], responses: { '200': json(ref('UploadFile'), 'The file'), ...ERRORS(400, 401, 403, 404) } },
      delete: { tags, operationId: 'deleteFile', summary: 'Delete a file', parameters: [fileId], responses: { '200': json(ref('UploadFile'), 'The deleted file'), ...ERRORS(401, 403, 404) } },
    },
  };
}

const LOCALE_SCHEMA: Schema = {
  type: 'object',
  required: ['id', 'documentId', 'name', 'code', 'isDefault'],
  properties: {
    id: { type: 'integer' },
    documentId: { type: 'string' },
    name: { type: 'string' },
    code: { type: 'string' },
    isDefault: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    publishedAt: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};

/** The i18n plugin's locale list (config/plugins.json), a plain array as Strapi answers it. */
function localeOperations(): Record<string, Record<string, Schema>> {
  return {
    '/i18n/locales': {
      get: {
        tags: ['Internationalization'],
        operationId: 'listLocales',
        summary: 'The configured locales',
        responses: { '200': json({ type: 'array', items: ref('Locale') }, 'The locales'), ...ERRORS(401, 403) },
      },
    },
  };
}

function authOperations(hasUsers: boolean): Record<string, Record<string, Schema>> {
  if (!hasUsers) return {};
  const tags = ['Users & permissions'];
  const signedIn = json(ref('SignedIn'), 'Signed in: the JWT to send as `Authorization: Bearer` and the user');
  const post = (operationId: string, summary: string, input: Schema, responses: Record<string, Schema>): Record<string, Schema> => ({
    post: { tags, operationId, summary, security: [{}, { userJwt: [] }], requestBody: body(input), responses },
  });
  const object = (required: string[], extra: Record<string, Schema> = {}): Schema => ({
    type: 'object',
    required,
    properties: { ...Object.fromEntries(required.map((k) => [k, { type: 'string' }])), ...extra },
  });
  return {
    '/auth/local': post('login', 'Sign in with a username or email and a password', object(['identifier', 'password']), { '200': signedIn, ...ERRORS(400, 429) }),
    '/auth/local/register': post('register', 'Create an account', object(['username', 'email', 'password']), {
      '200': json({ type: 'object', required: ['user'], properties: { jwt: { type: 'string' }, user: ref('User') } }, 'The account; a JWT unless the email must be confirmed first'),
      ...ERRORS(400, 429),
    }),
    '/auth/forgot-password': post('forgotPassword', 'Email a password reset link', object(['email']), {
      '200': json({ type: 'object', required: ['ok'], properties: { ok: { const: true } } }, 'Sent (or no such account)'),
      ...ERRORS(400, 429),
    }),
    '/auth/reset-password': post('resetPassword', 'Set a new password with the emailed code', object(['code', 'password', 'passwordConfirmation']), { '200': signedIn, ...ERRORS(400, 429) }),
    '/auth/change-password': post('changePassword', "Change the signed-in user's password", object(['currentPassword', 'password', 'passwordConfirmation']), {
      '200': signedIn,
      ...ERRORS(400, 401, 403, 429),
    }),
    '/auth/send-email-confirmation': post('sendEmailConfirmation', 'Send the email confirmation link again', object(['email']), {
      '200': json({ type: 'object', required: ['email', 'sent'], properties: { email: { type: 'string' }, sent: { const: true } } }, 'Sent (or no such account)'),
      ...ERRORS(400, 429),
    }),
    '/users/me': {
      get: {
        tags,
        operationId: 'me',
        summary: 'The signed-in user',
        security: [{ userJwt: [] }],
        parameters: [param('populate'), param('fields')],
        responses: { '200': json(ref('User'), 'The user'), ...ERRORS(400, 401, 403) },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------

const ERROR_SCHEMA: Schema = {
  type: 'object',
  required: ['data', 'error'],
  properties: {
    data: { type: 'null' },
    error: {
      type: 'object',
      required: ['status', 'name', 'message'],
      properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, details: {} },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const PAGINATION_SCHEMA: Schema = {
  anyOf: [
    {
      type: 'object',
      required: ['page', 'pageSize', 'pageCount', 'total'],
      properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, pageCount: { type: 'integer' }, total: { type: 'integer' } },
      additionalProperties: false,
    },
    { type: 'object', required: ['start', 'limit'], properties: { start: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } }, additionalProperties: false },
  ],
};

export function emitOpenApi(model: Model): Schema {
  const owners: Owner[] = [...model.contentTypes, ...model.components];
  const index = new Map<string, Owner>(owners.map((o) => [o.uid, o]));
  const routed = routedTypes(model);
  const hasUsers = index.has(USER_UID);
  const schemas: Record<string, Schema> = { UploadFile: FILE_SCHEMA, Error: ERROR_SCHEMA, Pagination: PAGINATION_SCHEMA };
  for (const owner of owners) {
    schemas[owner.names.tsType] = entrySchema(owner, index);
    if (!isContentType(owner)) schemas[`${owner.names.tsType}Input`] = inputSchema(owner, index, false);
  }
  for (const type of routed) {
    const name = type.names.tsType;
    schemas[`${name}Input`] = inputSchema(type, index, true);
    schemas[`${name}UpdateInput`] = inputSchema(type, index, false);
    schemas[`${name}Response`] = { type: 'object', required: ['data', 'meta'], properties: { data: ref(name), meta: { type: 'object' } }, additionalProperties: false };
    if (type.kind === 'collectionType') {
      schemas[`${name}ListResponse`] = {
        type: 'object',
        required: ['data', 'meta'],
        properties: { data: { type: 'array', items: ref(name) }, meta: { type: 'object', properties: { pagination: ref('Pagination') } } },
        additionalProperties: false,
      };
    }
  }
  if (hasUsers) {
    schemas.User = ref(schemaName(USER_UID, index));
    schemas.SignedIn = { type: 'object', required: ['jwt', 'user'], properties: { jwt: { type: 'string' }, user: ref('User') }, additionalProperties: false };
  }
  schemas.FileInfo = FILE_INFO;
  schemas.Locale = LOCALE_SCHEMA;
  const paths: Record<string, Record<string, Schema>> = Object.assign({}, ...routed.map(typeOperations), uploadOperations(), localeOperations(), authOperations(hasUsers));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Content API',
      version: '1.0.0',
      description: "The REST content API of this project, as capi generated it from the content types: Strapi 5's routes, query parameters (bracket notation) and envelopes.",
    },
    servers: [{ url: '/api' }],
    // Public access needs no credentials; the roles config/permissions.json grants decide.
    security: [{}, { apiToken: [] }, { userJwt: [] }],
    tags: [
      ...routed.map((t) => ({ name: t.displayName, description: t.description || t.uid })),
      { name: 'Upload' },
      { name: 'Internationalization' },
      ...(hasUsers ? [{ name: 'Users & permissions' }] : []),
    ],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1))),
    components: {
      schemas,
      parameters: PARAMETERS,
      responses: Object.fromEntries(Object.entries(ERROR_DESCRIPTIONS).map(([status, description]) => [`Error${status}`, json(ref('Error'), description)])),
      securitySchemes: {
        apiToken: { type: 'http', scheme: 'bearer', description: 'An API token (Settings > API tokens), sent as `Authorization: Bearer <token>`.' },
        userJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "A signed-in user's JWT, from `POST /api/auth/local`." },
      },
    },
  };
}
