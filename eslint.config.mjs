// ESLint for capi's own source (`npm run lint`; `npm run lint:fix` applies the fixable rules):
// typescript-eslint's recommended rules without type information (fast: no program is built),
// plus the house rules of docs/architecture.md. The generated project is checked by its own
// strict compile, and generated/ is excluded.
import './scripts/classic-typescript.mjs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['generated/**', 'node_modules/**', 'tmp/**', 'test/golden/**', 'test/fixtures/**', '**/dist/**', '**/.data/**', 'examples/**/node_modules/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // No `any` in capi's source: public types are what the generated code and its users see.
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Type-only imports say so (`import type` or an inline `type`), so erasing them changes nothing;
      // `typeof import('...')` stays allowed for modules a test loads dynamically.
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-var': 'error',
    },
  },
  {
    // The typed client computes result types by intersection, whose identity is `{}`.
    files: ['templates/client/**'],
    rules: { '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }] },
  },
  {
    // Tests read loosely typed JSON answers; `any` there stays inside the test.
    files: ['test/**', 'templates/runtime/**/*.test.ts', 'templates/runtime/**/test-*.ts', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Type-level tests: a binding exists to be checked by the compiler, not used.
    files: ['test/**/*.check.ts'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    // Plain JavaScript (scripts, the CLI's entry, the floor benchmark) runs on Node.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly' },
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
