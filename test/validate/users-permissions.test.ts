/**
 * users-permissions' user and role are built into every model; a project extends the user with a
 * schema of its own (flat: extensions/users-permissions/user.json), which must keep the plugin's
 * attributes; relations to the user get their inverse side on the built-in user.
 */
import { describe, expect, it } from 'vitest';
import { USER_SCHEMA } from '../../generator/builtin/users-permissions.ts';
import { loadSchemas } from '../../generator/load.ts';
import { buildModel } from '../../generator/model/build.ts';
import { normalizeSchemas } from '../../generator/normalize.ts';
import { problems, single, writeModel, type Json } from './helpers.ts';

const extension = (attributes: Record<string, Json>): Json => ({ ...(USER_SCHEMA as unknown as Record<string, Json>), attributes });
const modelOf = (files: Record<string, Json>) => buildModel(normalizeSchemas(loadSchemas(writeModel(files)).files).files);

describe('the built-in users-permissions types', () => {
  it('are in every model, with Strapi tables and GraphQL names', () => {
    const model = modelOf(single('note', { title: { type: 'string' } }));
    const user = model.contentTypes.find((t) => t.uid === 'plugin::users-permissions.user')!;
    const role = model.contentTypes.find((t) => t.uid === 'plugin::users-permissions.role')!;
    expect([user.names.table, user.names.graphqlType, role.names.table, role.names.graphqlType]).toEqual(['up_users', 'UsersPermissionsUser', 'up_roles', 'UsersPermissionsRole']);
    expect(user.attributes.find((a) => a.name === 'password')).toMatchObject({ kind: 'scalar', type: 'password', private: true });
  });

  it('take an extension of the user that adds attributes', () => {
    const files = { ...single('note', {}), 'extensions/users-permissions/user.json': extension({ ...(USER_SCHEMA.attributes as unknown as Record<string, Json>), fullName: { type: 'string' } }) };
    expect(problems(files)).toEqual([]);
    const user = modelOf(files).contentTypes.find((t) => t.uid === 'plugin::users-permissions.user')!;
    expect(user.attributes.map((a) => a.name)).toContain('fullName');
  });

  it("refuse an extension that drops the plugin's attributes, naming them", () => {
    const files = { ...single('note', {}), 'extensions/users-permissions/user.json': extension({ username: { type: 'string' }, role: USER_SCHEMA.attributes.role as unknown as Json }) };
    expect(problems(files)[0]).toContain(
      'the user type\'s extension lacks the plugin\'s attribute(s) "email", "provider", "password", "resetPasswordToken", "confirmationToken", "confirmed", "blocked"',
    );
  });

  it("refuse an extension that changes the type of the plugin's attributes: a string password would be stored and answered as given", () => {
    const attributes = USER_SCHEMA.attributes as unknown as Record<string, Json>;
    const files = { ...single('note', {}), 'extensions/users-permissions/user.json': extension({ ...attributes, password: { type: 'string' }, blocked: { type: 'string' } }) };
    expect(problems(files)).toEqual([
      'extensions/users-permissions/user.json #/attributes/password/type: the user type\'s extension makes the plugin\'s attribute "password" a "string"; the plugin\'s is a "password"\n' +
        '    fix: keep "type": "password": sign-in stores a bcrypt hash of it and never returns it, where a "string" would be stored and answered as given',
      'extensions/users-permissions/user.json #/attributes/blocked/type: the user type\'s extension makes the plugin\'s attribute "blocked" a "string"; the plugin\'s is a "boolean"\n' +
        '    fix: keep "type": "boolean": sign-in, registration and the password flows rely on it (see docs/users.md)',
    ]);
  });

  it('give the built-in user the inverse side of a relation that names one', () => {
    const files = single('post', { author: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'posts' } });
    expect(problems(files)).toEqual([]);
    const user = modelOf(files).contentTypes.find((t) => t.uid === 'plugin::users-permissions.user')!;
    expect(user.attributes.find((a) => a.name === 'posts')).toMatchObject({ kind: 'relation', target: 'api::post.post' });
  });
});
