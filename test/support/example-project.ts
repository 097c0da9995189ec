/**
 * The example model's emitted code, for tests that need more than its static tables
 * (test/support/runtime-model.ts): emitModules' files (schema tables, GraphQL bindings, routes,
 * src/model.ts) written to a scratch folder whose src/runtime links to templates/runtime, and the
 * SDL. Runtime tests use this instead of the committed generated/ (docs/architecture.md, "Layers
 * and their rules"), so what they test is what the generator emits now.
 *
 *   const example = await emitExample();
 *   const { graphqlBindings } = await example.load<{ graphqlBindings: GraphqlBindings }>('src/graphql/bindings.ts');
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emitGraphqlSchema } from '../../generator/emit/graphql/sdl.ts';
import { emitModules } from '../../generator/emit/modules.ts';
import { exampleContentTypes, repoRoot } from './model.ts';
import { generatorModelFrom } from './runtime-model.ts';

export interface EmittedExample {
  /** The scratch project folder (removed when the process exits). */
  readonly dir: string;
  /** src/graphql/schema.graphql. */
  readonly sdl: string;
  /** Imports an emitted module by its path in the project, e.g. `src/model.ts`. */
  load<T>(path: string): Promise<T>;
}

/** The header's source, as `capi generate` writes it for generated/. */
const SOURCE = '../content-types/';

export async function emitExample(contentTypes: string = exampleContentTypes): Promise<EmittedExample> {
  const model = generatorModelFrom(contentTypes);
  const dir = mkdtempSync(join(tmpdir(), 'capi-example-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const file of await emitModules(model, SOURCE)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  // A link, not a copy: the emitted modules then share the runtime's module instances with the test.
  symlinkSync(join(repoRoot, 'templates', 'runtime'), join(dir, 'src', 'runtime'), 'dir');
  return {
    dir,
    sdl: emitGraphqlSchema(model, { source: SOURCE }),
    load: async <T>(path: string) => (await import(pathToFileURL(join(dir, path)).href)) as T,
  };
}
