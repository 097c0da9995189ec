/** Where a generated project keeps its OpenAPI document: written by capi, served by openapi/index.ts. */
export const OPENAPI_FILE = 'openapi.json';
