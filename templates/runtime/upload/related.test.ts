import { describe, expect, it } from 'vitest';
import { splitRelated } from './related.ts';

describe('populate=related on files', () => {
  it('is found in every populate form and taken out of what the parser sees', () => {
    expect(splitRelated(undefined)).toEqual({ related: false, rest: undefined });
    expect(splitRelated('related')).toEqual({ related: true, rest: undefined });
    expect(splitRelated('folder,related')).toEqual({ related: true, rest: ['folder'] });
    expect(splitRelated(['related', 'x'])).toEqual({ related: true, rest: ['x'] });
    expect(splitRelated('*')).toEqual({ related: true, rest: '*' });
    expect(splitRelated({ related: 'true' })).toEqual({ related: true, rest: undefined });
    expect(splitRelated({ related: 'false' })).toEqual({ related: false, rest: undefined });
    expect(splitRelated({ related: { on: {} } })).toEqual({ related: true, rest: undefined });
    expect(splitRelated({ 0: 'related', other: 'true' })).toEqual({ related: true, rest: { other: 'true' } });
    expect(splitRelated({ other: 'true' })).toEqual({ related: false, rest: { other: 'true' } });
    expect(splitRelated('other')).toEqual({ related: false, rest: ['other'] });
  });
});
