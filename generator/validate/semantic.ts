/**
 * The semantic pass: rules that need more than one value, or more than one file, to decide.
 * Every rule reads the forgiving view, so it runs on files the structural pass rejected too.
 */
import type { SchemaFile } from '../load.ts';
import type { Finding } from './finding.ts';
import { attributeFindings } from './rules-attributes.ts';
import { componentFindings } from './rules-components.ts';
import { graphqlNameFindings } from './rules-graphql.ts';
import { indexFindings } from './rules-indexes.ts';
import { linkFindings } from './rules-links.ts';
import { nameFindings } from './rules-names.ts';
import { relationFindings } from './rules-relations.ts';
import { buildView } from './view.ts';

export function semanticFindings(files: readonly SchemaFile[], complete = true): Finding[] {
  const model = buildView(files, complete);
  return [
    ...nameFindings(model),
    ...graphqlNameFindings(model),
    ...model.types.flatMap(attributeFindings),
    ...relationFindings(model),
    ...linkFindings(model),
    ...componentFindings(model),
    ...model.types.flatMap(indexFindings),
  ];
}
