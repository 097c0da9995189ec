/**
 * graphql-codegen configuration for this API's GraphQL schema (schema.graphql, served at /graphql).
 * Install and run it in your front end:
 *   npm install -D @graphql-codegen/cli @graphql-codegen/client-preset
 *   npx graphql-codegen --config node_modules/<this package>/codegen.ts
 * It types the operations written in your sources (`graphql(\`query { articles { title } }\`)`).
 */
const config = {
  schema: new URL('./schema.graphql', import.meta.url).pathname,
  documents: ['src/**/*.{ts,tsx,vue,svelte}', '!src/gql/**/*'],
  ignoreNoDocuments: true,
  generates: {
    './src/gql/': {
      preset: 'client',
      config: {
        scalars: {
          DateTime: 'string',
          Date: 'string',
          Time: 'string',
          JSON: 'unknown',
          Long: 'string',
          I18NLocaleCode: 'string',
          Upload: 'File',
        },
      },
    },
  },
};

export default config;
