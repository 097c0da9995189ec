/**
 * typescript-eslint and dependency-cruiser parse TypeScript with the compiler's JavaScript API
 * (`ts.createSourceFile`), which TypeScript 7, the Go compiler capi type-checks with, no longer
 * ships. Loaded before them, this module answers their `typescript` with TypeScript 6 (the
 * `typescript-classic` dev dependency) in this process only; `tsc` stays TypeScript 7.
 * eslint.config.mjs imports it first; `npm run check:deps` runs depcruise with `node --import`.
 */
import Module, { register } from 'node:module';

const CLASSIC = 'typescript-classic';

/** `typescript` and `typescript/...` become the same request to TypeScript 6. */
function classic(request) {
  return request === 'typescript' || request.startsWith('typescript/') ? CLASSIC + request.slice('typescript'.length) : request;
}

// require() (typescript-eslint, and dependency-cruiser's version check) resolves through here.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, classic(request), ...rest);
};

// import() (dependency-cruiser loads the compiler this way) resolves through a loader hook.
const hook = `export function resolve(specifier, context, next) {
  return next(specifier === 'typescript' || specifier.startsWith('typescript/') ? ${JSON.stringify(CLASSIC)} + specifier.slice(10) : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
