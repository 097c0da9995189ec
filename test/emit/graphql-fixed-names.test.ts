/**
 * The validator checks derived GraphQL names against model/graphql-fixed-names.ts instead of
 * importing the emitter; this holds that list to what the emitter really defines.
 */
import { describe, expect, it } from 'vitest';
import { commonTypes } from '../../generator/emit/graphql/common.ts';
import { graphqlModel } from '../../generator/emit/graphql/entities.ts';
import { scalarFilterInputs } from '../../generator/emit/graphql/filters.ts';
import { mutationType, queryType } from '../../generator/emit/graphql/operations.ts';
import { fileInfoInput, genericMorph, usersPermissionsTypeDefs } from '../../generator/emit/graphql/plugins.ts';
import { customScalars } from '../../generator/emit/graphql/scalars.ts';
import { FIXED_GRAPHQL_TYPE_NAMES, PLUGIN_DOCUMENT_TYPE_NAMES } from '../../generator/model/graphql-fixed-names.ts';

describe('the GraphQL names defined whatever the model', () => {
  const plugins = graphqlModel({ contentTypes: [], components: [], linkTables: [] });

  it('are the fixed definitions the emitter prints', () => {
    const defs = [...customScalars(), ...commonTypes(), ...scalarFilterInputs(), fileInfoInput(), genericMorph(plugins), ...usersPermissionsTypeDefs(), queryType(plugins), mutationType(plugins)];
    expect([...FIXED_GRAPHQL_TYPE_NAMES].sort()).toEqual(defs.map((def) => def.name).sort());
  });

  it('include every plugin document type the emitter serves', () => {
    expect(plugins.entities.map((entity) => [entity.typeName, entity.kind])).toEqual(PLUGIN_DOCUMENT_TYPE_NAMES.map((name) => [name, 'collectionType']));
  });
});
