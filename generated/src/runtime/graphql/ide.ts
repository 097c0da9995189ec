/**
 * The interactive IDE: GraphiQL as bundled by @graphql-yoga/render-graphiql, served entirely by
 * this server so that it works without internet (Apollo's landing page loads from a CDN).
 *
 * `GET <path>` from a browser (Accept prefers text/html) gets a small HTML page; the scripts,
 * styles, Monaco's workers and the favicon come from `<path>/ide/<hash>/<file>`, cacheable
 * forever because the hash changes with their contents. The bundle (about 9 MB of JavaScript) is
 * loaded on the first IDE request only, so API-only use never pays for it. A Content-Security-
 * Policy limits the page to this origin, which also guarantees it makes no external request.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Router, type Request, type Response } from 'express';
// Type-only, so the 9 MB bundle is not loaded at start-up (loadBundle imports it on demand); the
// static line is also how capi's project emitter sees that the runtime depends on the package.
import type * as GraphiqlBundle from '@graphql-yoga/render-graphiql/graphiql';

export interface IdeOptions {
  /** The page title. Default "capi GraphiQL". */
  readonly title?: string;
  /** The query of a fresh tab. */
  readonly defaultQuery?: string;
}

interface Asset {
  readonly type: string;
  readonly body: Buffer;
  gzipped?: Promise<Buffer>;
}

interface Bundle {
  /** Changes whenever any asset does. */
  readonly hash: string;
  readonly assets: ReadonlyMap<string, Asset>;
}

/** Monaco asks for its workers by these labels (the same as Yoga's own page). */
const workerFiles = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' } as const;

/**
 * Sets Monaco's worker lookup before the bundle runs and renders GraphiQL after it. Static files
 * rather than inline scripts, so the CSP needs no 'unsafe-inline' for scripts; the per-page
 * settings travel in a JSON script element, which is data, not code.
 */
const environmentScript = `(function () {
  var config = JSON.parse(document.getElementById('capi-graphiql-config').textContent);
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) { return config.workers[label] || config.workers.editorWorkerService; }
  };
})();
`;

const startScript = `(function () {
  var config = JSON.parse(document.getElementById('capi-graphiql-config').textContent);
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), config.options);
})();
`;

const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

let bundle: Promise<Bundle> | undefined;

/** Loads and indexes the GraphiQL bundle once per process. */
function loadBundle(): Promise<Bundle> {
  bundle ??= import('@graphql-yoga/render-graphiql/graphiql').then((graphiql: typeof GraphiqlBundle): Bundle => {
    const javascript = 'text/javascript; charset=utf-8';
    const entries: Array<[string, Asset]> = [
      ['graphiql.js', { type: javascript, body: Buffer.from(graphiql.js) }],
      ['graphiql.css', { type: 'text/css; charset=utf-8', body: Buffer.from(graphiql.css) }],
      [workerFiles.editorWorkerService, { type: javascript, body: Buffer.from(graphiql.editorWorkerService) }],
      [workerFiles.json, { type: javascript, body: Buffer.from(graphiql.jsonWorker) }],
      [workerFiles.graphql, { type: javascript, body: Buffer.from(graphiql.graphqlWorker) }],
      ['environment.js', { type: javascript, body: Buffer.from(environmentScript) }],
      ['start.js', { type: javascript, body: Buffer.from(startScript) }],
      ['favicon.ico', faviconAsset(graphiql.favicon)],
    ];
    const digest = createHash('sha256');
    for (const [name, asset] of entries) digest.update(name).update(asset.body);
    return { hash: digest.digest('hex').slice(0, 16), assets: new Map(entries) };
  });
  // A failed import should not be cached forever: the next request tries again.
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

/** The bundle ships its favicon as a data URL; serve it as a file instead of repeating 150 kB in every page. */
function faviconAsset(dataUrl: string): Asset {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(dataUrl);
  return match === null ? { type: 'image/x-icon', body: Buffer.alloc(0) } : { type: match[1] ?? 'image/x-icon', body: Buffer.from(match[2] ?? '', 'base64') };
}

/** Whether a GET asks for a page rather than a GraphQL response (a browser's address bar does). */
export function prefersHtml(req: Request): boolean {
  return req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) === 'text/html';
}

/** The HTML page. `base` is the path GraphQL is mounted at, e.g. `/graphql`. */
export function idePage(base: string, hash: string, options: IdeOptions = {}): string {
  const asset = (name: string): string => `${base}/ide/${hash}/${name}`;
  const config = {
    workers: Object.fromEntries(Object.entries(workerFiles).map(([label, file]) => [label, asset(file)])),
    options: {
      endpoint: base,
      title: options.title ?? 'capi GraphiQL',
      ...(options.defaultQuery === undefined ? {} : { defaultQuery: options.defaultQuery }),
    },
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(config.options.title)}</title>
    <link rel="icon" href="${asset('favicon.ico')}" />
    <link rel="stylesheet" href="${asset('graphiql.css')}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to use GraphiQL.</noscript>
    <div id="root"></div>
    <script type="application/json" id="capi-graphiql-config">${scriptSafeJson(config)}</script>
    <script src="${asset('environment.js')}"></script>
    <script src="${asset('graphiql.js')}"></script>
    <script src="${asset('start.js')}"></script>
  </body>
</html>
`;
}

/**
 * Serves the page at `/` of the router (for browsers only: other GETs fall through to the GraphQL
 * handler) and the assets under `/ide/`.
 */
export function ideRouter(options: IdeOptions = {}): Router {
  const router = Router();
  router.get('/', async (req, res, next) => {
    if (!prefersHtml(req)) return next();
    const { hash } = await loadBundle();
    res.set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': contentSecurityPolicy,
      'x-content-type-options': 'nosniff',
      vary: 'Accept',
    });
    res.send(idePage(req.baseUrl, hash, options));
  });
  router.get('/ide/:hash/:file', async (req, res, next) => {
    const { hash, assets } = await loadBundle();
    const asset = assets.get(req.params.file);
    if (asset === undefined || req.params.hash !== hash) return next();
    await sendAsset(req, res, asset);
  });
  return router;
}

async function sendAsset(req: Request, res: Response, asset: Asset): Promise<void> {
  res.set({
    'content-type': asset.type,
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    // A worker script runs under the policy of its own response: the IDE's, not the API's
    // (strapi::security's helmet policy, set before this router runs).
    'content-security-policy': contentSecurityPolicy,
    vary: 'Accept-Encoding',
  });
  // Five megabytes of JavaScript shrink to about one: worth compressing, once.
  if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    asset.gzipped ??= promisify(gzip)(asset.body);
    res.set('content-encoding', 'gzip');
    res.end(await asset.gzipped);
    return;
  }
  res.end(asset.body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON that cannot close the script element it sits in. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
