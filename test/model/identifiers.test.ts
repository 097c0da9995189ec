/** Generated TypeScript identifiers are unique, against each other and against the runtime's. */
import { describe, expect, it } from 'vitest';
import { identifierAllocator, RUNTIME_IDENTIFIERS } from '../../generator/model/identifiers.ts';

describe('identifierAllocator', () => {
  it('keeps free names, and suffixes a runtime name or a name taken earlier with the first free number', () => {
    const allocate = identifierAllocator(['collectionTypeRoutes', 'collectionTypeRoutes2', 'DocumentFields', 'articleSchema']);
    expect(allocate('articleSchema')).toBe('articleSchema');
    // collectionTypeRoutes is the runtime's; collectionTypeRoutes2 is derived by another type.
    expect(allocate('collectionTypeRoutes')).toBe('collectionTypeRoutes3');
    expect(allocate('collectionTypeRoutes2')).toBe('collectionTypeRoutes2');
    expect(allocate('DocumentFields')).toBe('DocumentFields2');
    expect(allocate('articleSchema')).toBe('articleSchema2');
  });

  it('reserves every identifier generated modules import from the runtime', () => {
    for (const name of [
      'collectionTypeRoutes',
      'singleTypeRoutes',
      'collectionTypeGraphql',
      'singleTypeGraphql',
      'componentGraphql',
      'DocumentFields',
      'UploadFile',
      'JsonValue',
      'ContentTypeSchema',
      'ComponentSchema',
      'ModelSchema',
      'GraphqlBindings',
    ]) {
      expect(RUNTIME_IDENTIFIERS.has(name), name).toBe(true);
    }
  });
});
