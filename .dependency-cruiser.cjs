/**
 * The direction of capi's layers (docs/architecture.md, "Layers and their rules"):
 *
 *   templates/contract  <-  generator  <-  bin
 *   templates/contract  <-  templates/runtime
 *
 * `npm run check:deps` (part of `npm test`) fails on any import against it. Tests may import any
 * layer but not the committed output `generated/`, except the tests whose subject it is.
 */

/** Test code next to the runtime: `*.test.ts` and the `test-*.ts` helpers (not shipped, see package.json `files`). */
const RUNTIME_TESTS = ['^templates/runtime/.+\\.test\\.ts$', '^templates/runtime/.*/?test-[^/]+\\.ts$'];

/**
 * The tests whose subject is the committed output itself: is generated/ up to date, do the
 * committed client's types hold, does the front-end example build against the committed client
 * (test/http/client.test.ts runs that example, and types the client it loads from a freshly
 * generated project by the committed one). Every other test builds what it needs from a fixture
 * (test/support/runtime-model.ts, example-project.ts). test/layers.test.ts holds the same list
 * for paths in file reads, which dependency-cruiser does not see.
 */
const COMMITTED_OUTPUT_TESTS = ['^test/cli/committed\\.test\\.ts$', '^test/client/types\\.check\\.ts$', '^test/client/example\\.ts$', '^test/http/client\\.test\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-imports-no-layer',
      comment: 'templates/contract (the typed tables of scalar types, operators and databases) is what the generator and the runtime share: it imports neither of them.',
      severity: 'error',
      from: { path: '^templates/contract/' },
      to: { path: '^(generator|templates/runtime|templates/client|bin|test|generated)/' },
    },
    {
      name: 'runtime-imports-only-contract-and-packages',
      comment: 'templates/runtime is copied into every generated project: it can import itself, templates/contract and npm packages, nothing of the generator, the CLI or the tests.',
      severity: 'error',
      from: { path: '^templates/runtime/', pathNot: RUNTIME_TESTS },
      to: { path: '^(generator|bin|test|generated|templates/(client|project))/' },
    },
    {
      name: 'generator-imports-no-cli-or-tests',
      comment: 'The generator is a library the CLI (bin/) drives and the tests call: it depends on neither.',
      severity: 'error',
      from: { path: '^generator/' },
      to: { path: '^(bin|test|generated)/' },
    },
    {
      name: 'validator-imports-no-emitter',
      comment: 'Validation decides what is a valid schema before anything is emitted; rules the emitters also need (GraphQL names, attribute shapes) belong in the model or the contract.',
      severity: 'error',
      from: { path: '^generator/validate/' },
      to: { path: '^generator/emit/' },
    },
    {
      name: 'tests-use-fixtures-not-generated',
      comment:
        'Runtime and generator tests build their model from content-types/ or a fixture (test/support/model.ts), so a stale or half-regenerated generated/ cannot make them pass or fail. Only the tests of the committed output itself import it.',
      severity: 'error',
      from: { path: '^(bin|generator|templates|test)/', pathNot: COMMITTED_OUTPUT_TESTS },
      to: { path: '^generated/' },
    },
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one: split the shared part into a module both import.',
      severity: 'error',
      from: { path: '^(generator|templates/(runtime|contract))/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
  ],
  options: {
    // Imports of generated/ are seen (tests-use-fixtures-not-generated) but not walked into.
    doNotFollow: { path: ['node_modules', '^generated/'] },
    exclude: { path: '^(node_modules|tmp|test/golden|test/fixtures)/|/\\.data/|/dist/' },
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
  },
};
