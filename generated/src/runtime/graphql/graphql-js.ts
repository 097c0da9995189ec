/**
 * graphql-js, imported by its CommonJS entry on purpose. The package ships both `index.js`
 * (CommonJS, what Node's resolver picks, and so what Apollo Server and graphql-tools load) and
 * `index.mjs` (what Vite-based tools such as vitest pick from its `module` field). Two copies mean
 * two realms: a schema or GraphQLError made by one fails the other's instanceof checks ("Cannot
 * use GraphQLObjectType from another module or realm"). Naming the file pins every importer of
 * this module to the copy Apollo uses, in tests and in production alike.
 */
export * from 'graphql/index.js';
