/**
 * The API's OpenAPI 3.1 document and a Swagger UI page for it:
 *
 *   GET /api/openapi.json   the document capi generated into the project (openapi.json)
 *   GET /api/docs           Swagger UI, its assets served from swagger-ui-dist (no CDN)
 *
 * Both only when plugins.json `documentation.enabled` (default: not in production, as the GraphQL
 * IDE and introspection): a public map of every route and field is for development.
 *
 * The page's start-up script is a file of its own, so a Content-Security-Policy without
 * 'unsafe-inline' scripts still lets it run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type RequestHandler } from 'express';
// The path helper alone: the package's main module would load the browser bundles into the server.
// An import (not require.resolve) so that the generated package.json depends on swagger-ui-dist.
import swaggerUiDist from 'swagger-ui-dist/absolute-path.js';
import type { ModelSchema } from '../schema.ts';
import type { AppContext, Mount } from '../server.ts';
import { OPENAPI_FILE } from './file.ts';

export { OPENAPI_FILE };

/** The assets the page loads, from swagger-ui-dist; nothing else of the package is served. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>API documentation</title>
    <link rel="stylesheet" href="./docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="./docs/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="./docs/swagger-ui-bundle.js"></script>
    <script src="./docs/swagger-ui-standalone-preset.js"></script>
    <script src="./docs/init.js"></script>
  </body>
</html>
`;

/** Relative to /api/docs, so the page works under any prefix a proxy adds. */
const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('./openapi.json', window.location.href).toString(),
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
});
`;

/** The page's path below /api. */
export const DOCS_SEGMENT = 'docs';

/** Whether a content type of the model is served at /api/docs: then it keeps its route. */
export function docsPathTaken(model: ModelSchema): boolean {
  return Object.values(model.contentTypes).some((type) => (type.kind === 'collectionType' ? type.pluralName : type.singularName) === DOCS_SEGMENT);
}

export function openapiMount(app: AppContext): Mount[] {
  if (!app.config.plugins.documentation.enabled) return [];
  let document: string;
  try {
    document = readFileSync(join(app.config.projectRoot, OPENAPI_FILE), 'utf8');
  } catch {
    // A project built without it (an older generation): no document, no page.
    app.logger.warn(`${OPENAPI_FILE} is missing: /api/openapi.json and /api/docs are off`);
    return [];
  }
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  const taken = docsPathTaken(app.model);
  if (taken) app.logger.warn(`a content type is served at /api/${DOCS_SEGMENT}: the Swagger UI page is off`);
  if (!taken) {
    const dist = swaggerUiDist();
    const page: RequestHandler = (req, res) => {
      // `/api/docs/` would resolve ./docs/… one level too deep: send it to `/api/docs`.
      if (req.originalUrl.split('?')[0]?.endsWith('/')) return res.redirect(301, `${req.baseUrl}/${DOCS_SEGMENT}`);
      res.type('text/html').send(PAGE);
    };
    router.get(`/${DOCS_SEGMENT}`, page);
    router.get(`/${DOCS_SEGMENT}/init.js`, (_req, res) => {
      res.type('text/javascript').send(INIT);
    });
    for (const [name, type] of Object.entries(ASSETS)) {
      const contents = readFileSync(join(dist, name));
      router.get(`/${DOCS_SEGMENT}/${name}`, (_req, res) => {
        res.set('cache-control', 'public, max-age=86400').type(type).send(contents);
      });
    }
  }
  return [{ path: '/api', handler: router }];
}
