/**
 * The examples every command's `--help` ends with, keyed by the command's path. A table rather
 * than text beside each command so that test/cli/help.test.ts can check that no command lacks one.
 */
import type { Command } from 'commander';

export const commandExamples: Readonly<Record<string, readonly string[]>> = {
  generate: [
    'capi generate                                           # content-types/ -> generated/, SQLite',
    'capi generate --content-types ../cms --out api          # a Strapi project (the folder holding src/)',
    'capi generate --out api --database postgres             # a new project on PostgreSQL',
    'capi generate --check                                   # in CI: exit 1 when generated/ is stale',
    'capi generate --accept-data-loss                        # allow a migration that drops a column',
  ],
  develop: ['capi develop                                            # watch content-types/, serve generated/ on :1337', 'PORT=4000 capi develop --content-types ../cms --out api'],
  validate: ['capi validate', 'capi validate --content-types ../cms/src'],
  token: ['capi token create --name ci --type read-only', 'capi token list', 'capi token revoke ci'],
  'token create': ['capi token create --name ci --type read-only', 'capi token create --name importer --type custom --permission api::article.article.create --expires-in-days 30'],
  'token list': ['capi token list', 'capi token list --project api'],
  'token revoke': ['capi token revoke importer'],
  user: ["capi user create --email ada@example.com --username ada --password 'S3cret!'", 'capi user list', 'capi user block ada'],
  'user create': ["capi user create --email ada@example.com --username ada --password 'S3cret!' --role editor"],
  'user list': ['capi user list --project api'],
  'user block': ['capi user block ada', 'capi user block ada@example.com --project api'],
  'user unblock': ['capi user unblock ada'],
  permissions: ['capi permissions list', 'capi permissions grant public api::article.article.find api::article.article.findOne', 'capi permissions revoke public api::article.article'],
  'permissions list': ['capi permissions list', 'capi permissions list public --project api', 'capi permissions list --all'],
  'permissions grant': [
    'capi permissions grant public api::article.article.find api::article.article.findOne   # anyone may read articles',
    'capi permissions grant editor api::article.article                                    # every action on articles',
    'capi permissions grant authenticated plugin::upload.content-api.upload',
  ],
  'permissions revoke': ['capi permissions revoke public api::article.article                    # every action on articles', 'capi permissions revoke editor api::article.article.delete'],
  import: [
    'capi import backup.tar.gz --dry-run                     # counts per type and every problem; writes nothing',
    'capi import backup.tar.gz --project api                 # a Strapi 5 `strapi export --no-encrypt` archive, all or nothing',
    'capi import backup.tar --project api --force            # replace the content the project already has',
  ],
  export: ['capi export backup                                      # backup.tar.gz from generated/', 'capi export backup --project api --no-compress      # a plain backup.tar'],
  jwt: ['JWT_SECRET=... capi jwt --subject 1', 'JWT_SECRET=... capi jwt --subject 1 --role editor --expires-in-hours 1'],
};

/** Appends each command's examples to its help, subcommands included; throws for a command without any. */
export function addExamples(program: Command, prefix = ''): void {
  for (const command of program.commands) {
    const path = `${prefix}${command.name()}`;
    const examples = commandExamples[path];
    if (examples === undefined) throw new Error(`capi ${path} has no examples in bin/examples.ts`);
    command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
    addExamples(command, `${path} `);
  }
}
