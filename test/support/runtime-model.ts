/**
 * The runtime's model (templates/runtime/schema.ts `ModelSchema`) of a content-types folder, built
 * in memory by the function that writes a generated project's static tables
 * (generator/emit/modules.ts `staticTables`). Runtime tests run on this, not on the committed
 * generated/, so a stale or half-regenerated generated/ cannot decide whether they pass
 * (docs/architecture.md, "Layers and their rules"; test/emit/static-tables.test.ts checks it equals
 * what the emitted src/model.ts evaluates to).
 */
import { staticTables } from '../../generator/emit/modules.ts';
import { loadSchemas } from '../../generator/load.ts';
import { buildModel } from '../../generator/model/build.ts';
import { normalizeSchemas } from '../../generator/normalize.ts';
import type { Model } from '../../generator/model/types.ts';
import type { ModelSchema } from '../../templates/runtime/schema.ts';
import { exampleContentTypes } from './model.ts';

/** The generator's model (IR) of a folder as `capi generate` builds it: loaded, normalized, built. */
export function generatorModelFrom(dir: string): Model {
  const loaded = loadSchemas(dir);
  if (loaded.diagnostics.length > 0) throw new Error(JSON.stringify(loaded.diagnostics));
  return buildModel(normalizeSchemas(loaded.files, loaded.config.customFields).files);
}

export function runtimeModelFrom(dir: string): ModelSchema {
  // The emitted tables are checked against ModelSchema by `satisfies` in every compiled project.
  return staticTables(generatorModelFrom(dir)) as ModelSchema;
}

/** The example model, content-types/: what generated/src/model.ts holds. */
export const model: ModelSchema = runtimeModelFrom(exampleContentTypes);
