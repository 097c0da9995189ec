/** What a Strapi project holds besides schema files, listed by `capi generate` as not brought over. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unportedParts } from '../../generator/strapi-project.ts';
import { writeModel } from './helpers.ts';

function project(files: Record<string, string>): string {
  const root = writeModel({});
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return join(root, 'src');
}

const listed = (files: Record<string, string>): string[] => unportedParts(project(files)).map((n) => `${n.file}: ${n.message}`);

describe('unportedParts', () => {
  it("leaves out what Strapi generated and nobody changed, in Strapi's TypeScript and CommonJS forms", () => {
    expect(
      listed({
        'src/api/a/routes/a.ts': "/** a router */\nimport { factories } from '@strapi/strapi';\n\nexport default factories.createCoreRouter('api::a.a');\n",
        'src/api/a/controllers/a.js': "'use strict';\nconst { createCoreController } = require('@strapi/strapi').factories;\nmodule.exports = createCoreController('api::a.a');\n",
        'src/api/a/services/a.ts': "import { factories } from '@strapi/strapi';\nexport default factories.createCoreService('api::a.a');",
        'src/api/a/content-types/a/schema.json': '{}',
        'src/index.ts': "// import type { Core } from '@strapi/strapi';\nexport default {\n  register(/* { strapi } */) {},\n  bootstrap(/* { strapi } */) {},\n};\n",
        'src/admin/app.example.tsx': 'export default {};',
        'config/plugins.ts': 'export default () => ({});\n',
      }),
    ).toEqual([]);
  });

  it('lists every customised or custom part, each with the capi file and key it is ported to', () => {
    const file = 'src/extensions/index.ts';
    expect(
      listed({
        'src/api/a/routes/a.ts': "import { factories } from '@strapi/strapi';\nexport default factories.createCoreRouter('api::a.a', { config: { find: { policies: ['is-owner'] } } });",
        'src/api/a/routes/custom.ts': "export default { routes: [{ method: 'GET', path: '/a/count', handler: 'a.count' }] };",
        'src/api/a/controllers/a.ts': "import { factories } from '@strapi/strapi';\nexport default factories.createCoreController('api::a.a', () => ({ async count() { return 1; } }));",
        'src/api/a/services/a.ts': 'export default { total: () => 0 };',
        'src/api/a/policies/is-owner.ts': 'export default () => true;',
        'src/api/a/middlewares/populate.ts': 'export default () => async (ctx, next) => next();',
        'src/api/a/content-types/a/lifecycles.ts': 'export default { beforeCreate() {} };',
        'src/policies/global.js': 'module.exports = () => true;',
        'src/middlewares/timer.js': 'module.exports = () => async (ctx, next) => next();',
        'src/extensions/users-permissions/strapi-server.ts': 'export default (plugin) => plugin;',
        'src/index.js': "module.exports = { async bootstrap({ strapi }) { await strapi.db.query('x'); } };",
        'src/admin/app.tsx': 'export default { config: { locales: ["fr"] } };',
        'config/plugins.js': "module.exports = ({ env }) => ({ upload: { config: { provider: 'aws-s3' } } });",
      }),
    ).toEqual([
      `src/api/a/routes/a.ts: custom routes: port to ${file}: contentTypes['api::a.a'].routes (route config: .config.<action>)`,
      `src/api/a/routes/custom.ts: custom routes: port to ${file}: contentTypes['api::a.a'].routes (route config: .config.<action>)`,
      `src/api/a/controllers/a.ts: custom controller: port to ${file}: contentTypes['api::a.a'].controller`,
      `src/api/a/services/a.ts: custom service: port to ${file}: contentTypes['api::a.a'].service`,
      `src/api/a/policies/is-owner.ts: policy: port to ${file}: a Policy in contentTypes['api::a.a'].config.<action>.policies`,
      `src/api/a/middlewares/populate.ts: middleware: port to ${file}: a RouteMiddleware in contentTypes['api::a.a'].config.<action>.middlewares (a default populate: .defaultQuery)`,
      `src/api/a/content-types/a/lifecycles.ts: lifecycle hooks: port to ${file}: contentTypes['api::a.a'].lifecycles`,
      `src/policies/global.js: global policy: port to ${file}: a Policy listed in each route's config.<action>.policies`,
      `src/middlewares/timer.js: global middleware: port to ${file}: middlewares.before / middlewares.after`,
      `src/extensions/users-permissions/strapi-server.ts: plugin extension: port to ${file}: graphql (GraphQL plugin extensions); other plugins are not served, see docs/moving-from-strapi.md`,
      `src/index.js: src/index lifecycle code: port to ${file}: register / bootstrap (strapi.documents.use: documents)`,
      `src/admin: admin panel customization: not served: capi has no admin panel`,
      `config/plugins.js: plugin configuration: copy the values capi has to config/plugins.json; see docs/moving-from-strapi.md`,
    ]);
  });

  it('names document middleware (strapi.documents.use), whose request parameters capi does not read, wherever the project registers it', () => {
    const file = 'src/extensions/index.ts';
    const middleware = 'module.exports = { register({ strapi }) { strapi.documents.use(async (context, next) => { if (context.params?.populateDynamicZone) {} return next(); }); } };';
    expect(
      listed({
        'src/index.js': middleware,
        'src/middlewares/populate.ts': 'export default { register: ({ strapi }) => { strapi\n  .documents\n  .use(() => {}); } };',
      }),
    ).toEqual([
      `src/middlewares/populate.ts: global middleware: port to ${file}: middlewares.before / middlewares.after`,
      `src/index.js: src/index lifecycle code: port to ${file}: register / bootstrap (strapi.documents.use: documents)`,
      `src/index.js: document middleware: strapi.documents.use: port to ${file}: documents; until then the request parameters it reads (e.g. populateDynamicZone) are ignored, and the server logs each once`,
      `src/middlewares/populate.ts: document middleware: strapi.documents.use: port to ${file}: documents; until then the request parameters it reads (e.g. populateDynamicZone) are ignored, and the server logs each once`,
    ]);
  });
});
