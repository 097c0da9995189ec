/** Component and dynamic zone references, and component cycles. */
import { describe, expect, it } from 'vitest';
import { component, problems, single } from './helpers.ts';

describe('semantic: components', () => {
  it('requires component and dynamic zone references to exist and be components', () => {
    const files = {
      ...single('post', { seo: { type: 'component', component: 'shared.sso' }, blocks: { type: 'dynamiczone', components: ['shared.seo', 'shared.quote', 'api::post.post'] } }),
      'components/shared/seo.json': component('Seo', {}),
    };
    expect(problems(files)).toEqual([
      'post.json #/attributes/blocks/components/1: component "shared.quote" does not exist\n    fix: did you mean "shared.seo"? use one of: shared.seo',
      'post.json #/attributes/blocks/components/2: "api::post.post" is a content type, not a component\n    fix: link content types with a "relation" attribute',
      'post.json #/attributes/seo/component: component "shared.sso" does not exist\n    fix: did you mean "shared.seo"? use one of: shared.seo',
    ]);
  });

  it('says which file to add when there are no components', () => {
    expect(problems(single('post', { seo: { type: 'component', component: 'shared.seo' } }))).toEqual([
      'post.json #/attributes/seo/component: component "shared.seo" does not exist\n    fix: add components/shared/seo.json',
    ]);
  });

  it('rejects a dynamic zone listing a component twice', () => {
    const files = { ...single('post', { blocks: { type: 'dynamiczone', components: ['shared.seo', 'shared.seo'] } }), 'components/shared/seo.json': component('Seo', {}) };
    expect(problems(files)).toEqual(['post.json #/attributes/blocks/components/1: "components" lists "shared.seo" twice\n    fix: remove the duplicate']);
  });

  it('accepts required on a dynamic zone', () => {
    const files = { ...single('post', { blocks: { type: 'dynamiczone', components: ['shared.seo'], required: true, min: 1 } }), 'components/shared/seo.json': component('Seo', {}) };
    expect(problems(files)).toEqual([]);
  });

  it('reports each component cycle once, with its path', () => {
    const files = {
      ...single('post', {}),
      'components/a/x.json': component('X', { y: { type: 'component', component: 'a.y' } }),
      'components/a/y.json': component('Y', { z: { type: 'component', component: 'a.z', repeatable: true } }),
      'components/a/z.json': component('Z', { x: { type: 'component', component: 'a.x' } }),
      'components/b/self.json': component('Self', { me: { type: 'component', component: 'b.self', repeatable: true } }),
    };
    expect(problems(files)).toEqual([
      'components/a/x.json #/attributes/y/component: component a.x contains itself: a.x → a.y → a.z → a.x\n    fix: a component cannot nest itself; remove "y" or another link of the chain',
      'components/b/self.json #/attributes/me/component: component b.self contains itself: b.self → b.self\n    fix: a component cannot nest itself; remove "me" or another link of the chain',
    ]);
  });
});
