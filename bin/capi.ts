/**
 * capi's command line. Each command is a thin shell over generator/: it parses flags, runs the
 * pipeline with a console reporter and turns known errors into messages and exit code 1.
 */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DATABASE_KINDS, type DatabaseKind } from '../generator/databases.ts';
import { generate, loadModel } from '../generator/generate.ts';
import { consoleReporter } from '../generator/steps.ts';
import { tokenTypes, TokenError, type TokenType } from '../templates/runtime/tokens.ts';
import { jwtSecret, signUserJwt } from '../templates/runtime/user-jwt.ts';
import { develop } from './develop.ts';
import { describeError } from './errors.ts';
import { addExamples } from './examples.ts';
import { createToken, listTokens, revokeToken } from './token.ts';
import { importLimitSpecs, parseLimit, type ImportLimitName, type ImportLimits } from '../templates/runtime/transfer/limits.ts';
import { grantPermissions, listPermissions, revokePermissions } from './permissions.ts';
import { runExport, runImport, type ImportFlags } from './transfer.ts';
import { createUser, listUsers, setBlocked } from './user.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command()
  .name('capi')
  .description('Generate a typed, Strapi 5 compatible API server from content-type schemas.')
  .version(version, '-v, --version', 'print the version of capi')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

program
  .command('generate')
  .description('validate the content types and (re)generate the server project, with a migration for any schema change')
  .option('--content-types <dir>', 'folder of schema files (flat layout or a Strapi project)', 'content-types')
  .option('--out <dir>', 'output folder of the generated project', 'generated')
  .addOption(new Option('--database <client>', 'database of the generated project (default: what --out was generated for, else sqlite)').choices(DATABASE_KINDS))
  .option('--check', 'generate in memory and exit 1 listing every file that differs from --out (for CI)', false)
  .option('--accept-data-loss', 'allow a migration that drops or rewrites tables or columns', false)
  .option('--skip-build', 'do not type-check and compile the generated project', false)
  .option('--no-install', 'when --out cannot find its dependencies, print the npm command to run instead of running it')
  .option('--quiet', 'print errors only', false)
  .action(async (flags: { contentTypes: string; out: string; database?: DatabaseKind; check: boolean; acceptDataLoss: boolean; skipBuild: boolean; install: boolean; quiet: boolean }) => {
    const report = consoleReporter(process.stderr, flags.quiet);
    report.info(`capi generate ${flags.contentTypes} → ${flags.out}${flags.check ? ' (check)' : ''}`);
    const result = await generate({ ...flags }, report);
    if (!flags.check) return;
    const { created, updated, removed } = result.changes;
    const stale = [...created.map((p) => `missing  ${p}`), ...updated.map((p) => `differs  ${p}`), ...removed.map((p) => `stale    ${p}`)];
    if (stale.length === 0) {
      report.info(`${flags.out} is up to date`);
      return;
    }
    process.stdout.write(`${flags.out} is out of date; run \`capi generate\`:\n${stale.map((l) => `  ${l}`).join('\n')}\n`);
    process.exitCode = 1;
  });

program
  .command('develop')
  .description('generate, migrate and serve, then regenerate, migrate and restart the server on every change to the content types')
  .option('--content-types <dir>', 'folder of schema files to watch (flat layout or a Strapi project)', 'content-types')
  .option('--out <dir>', 'output folder of the generated project', 'generated')
  .addOption(new Option('--database <client>', 'database of a new project (default: sqlite)').choices(DATABASE_KINDS))
  .option('--accept-data-loss', 'apply migrations that drop or rewrite tables or columns (refused by default: the server keeps running)', false)
  .option('--debounce <ms>', 'wait this long after the last change before regenerating', (value) => Number(value), 300)
  .action((flags: { contentTypes: string; out: string; database?: DatabaseKind; acceptDataLoss: boolean; debounce: number }) =>
    develop({ contentTypes: flags.contentTypes, out: flags.out, acceptDataLoss: flags.acceptDataLoss, debounceMs: flags.debounce, ...(flags.database ? { database: flags.database } : {}) }),
  );

program
  .command('validate')
  .description('check the content-type schemas and report every problem, without generating anything')
  .option('--content-types <dir>', 'folder of schema files (flat layout or a Strapi project)', 'content-types')
  .action(async (flags: { contentTypes: string }) => {
    const report = consoleReporter();
    await loadModel(flags.contentTypes, report);
    report.info('content types are valid');
  });

const token = program.command('token').description('manage the API tokens of a generated project (Authorization: Bearer <token>); needs API_TOKEN_SALT');
const projectOption = (): Option => new Option('--project <dir>', 'the generated project').default('generated');

token
  .command('create')
  .description('create a token and print it once (only its HMAC is stored)')
  .requiredOption('--name <name>', 'a unique name')
  .addOption(new Option('--type <type>', 'what it may do').choices([...tokenTypes]).makeOptionMandatory())
  .option('--permission <action...>', 'custom tokens: allowed actions, e.g. api::article.article.find')
  .option('--expires-in-days <days>', 'expire after this many days (default: never)', (value) => Number(value))
  .option('--description <text>', 'what the token is for')
  .addOption(projectOption())
  .action((flags: { name: string; type: TokenType; permission?: string[]; expiresInDays?: number; description?: string; project: string }) =>
    createToken({
      project: flags.project,
      name: flags.name,
      type: flags.type,
      ...(flags.permission ? { permissions: flags.permission } : {}),
      ...(flags.expiresInDays === undefined ? {} : { expiresInDays: flags.expiresInDays }),
      ...(flags.description === undefined ? {} : { description: flags.description }),
    }),
  );

token
  .command('list')
  .description('list tokens (never their secret)')
  .addOption(projectOption())
  .action((flags: { project: string }) => listTokens(flags));

token
  .command('revoke')
  .description('delete a token: requests using it get 401 from then on')
  .argument('<name>', 'the token to revoke')
  .addOption(projectOption())
  .action((name: string, flags: { project: string }) => revokeToken({ ...flags, name }));

const user = program.command('user').description('manage the users-permissions accounts of a generated project (sign-in at POST /api/auth/local)');

user
  .command('create')
  .description('create a confirmed user (password hashed with bcrypt, as Strapi does)')
  .requiredOption('--email <email>', 'their email address')
  .requiredOption('--username <name>', 'a unique username')
  .requiredOption('--password <password>', 'at least 6 characters')
  .option('--role <role>', 'a role of config/permissions.json (default: the default role, authenticated)')
  .addOption(projectOption())
  .action((flags: { email: string; username: string; password: string; role?: string; project: string }) => createUser(flags));

user
  .command('list')
  .description('list users (never their password)')
  .addOption(projectOption())
  .action((flags: { project: string }) => listUsers(flags));

for (const [name, blocked] of [
  ['block', true],
  ['unblock', false],
] as const) {
  user
    .command(name)
    .description(blocked ? 'block a user: they cannot sign in and their tokens stop working' : 'let a blocked user sign in again')
    .argument('<identifier>', 'username or email')
    .addOption(projectOption())
    .action((identifier: string, flags: { project: string }) => setBlocked({ ...flags, identifier, blocked }));
}

const permissions = program.command('permissions').description('list and change what each role may do (config/permissions.json): a new project opens no content until a role is granted it');

permissions
  .command('list')
  .description('print each role\'s actions, one "role<TAB>action" line each')
  .argument('[role]', 'only this role')
  .option('--all', 'every action the project has instead (what grant and revoke accept)', false)
  .addOption(projectOption())
  .action((role: string | undefined, flags: { all: boolean; project: string }) => listPermissions({ ...flags, ...(role === undefined ? {} : { role }) }));

permissions
  .command('grant')
  .description("let a role perform actions; a type's uid (api::article.article) stands for every action of the type")
  .argument('<role>', 'public (no credentials), authenticated (signed-in users) or any role of config/permissions.json; a new name adds a role')
  .argument('<actions...>', 'actions like api::article.article.find, or type uids')
  .addOption(projectOption())
  .action((role: string, names: string[], flags: { project: string }) => grantPermissions({ ...flags, role, names }));

permissions
  .command('revoke')
  .description("take actions away from a role; a type's uid stands for every action of the type")
  .argument('<role>', 'a role of config/permissions.json')
  .argument('<actions...>', 'actions like api::article.article.delete, or type uids')
  .addOption(projectOption())
  .action((role: string, names: string[], flags: { project: string }) => revokePermissions({ ...flags, role, names }));

const importCommand = program
  .command('import')
  .description('import a Strapi 5 data export (`strapi export --no-encrypt [--no-compress]`) into a generated project, all or nothing')
  .argument('<file>', 'the archive (.tar or .tar.gz)')
  .addOption(projectOption())
  .option('--dry-run', 'report what would be imported and every problem, write nothing', false)
  .option('--force', "replace the project's content (refused otherwise when it has some)", false)
  .option('--allow-missing', 'import even though the archive and the project describe different types: data the project has no place for is left out', false);
for (const [name, spec] of Object.entries(importLimitSpecs)) {
  const what = name === 'maxFileBytes' ? `${spec.what} (default: the project's upload sizeLimit)` : `${spec.what} (default ${spec.default})`;
  importCommand.addOption(new Option(`${spec.flag} <n>`, `refuse an archive over this limit on ${what}`).env(spec.env).argParser((value) => limitArgument(name as ImportLimitName, value)));
}
importCommand.action((file: string, flags: ImportFlags & Partial<ImportLimits>) => runImport(file, flags));

function limitArgument(name: ImportLimitName, value: string): number {
  const parsed = parseLimit(name, value, 'capi import');
  if (parsed instanceof Error) throw new InvalidArgumentError(parsed.message);
  return parsed;
}

program
  .command('export')
  .description("write a generated project's content as a Strapi 5 data-transfer archive (for `capi import` or `strapi import`)")
  .argument('<file>', 'the archive to write (.tar.gz, or .tar with --no-compress, is appended unless the name ends so)')
  .addOption(projectOption())
  .option('--no-compress', 'a plain tar instead of a gzipped one')
  .action((file: string, flags: { project: string; compress: boolean }) => runExport(file, flags));

program
  .command('jwt')
  .description('sign a user JWT (HS256, JWT_SECRET) that the server accepts as a signed-in user, for tests and service accounts')
  .requiredOption('--subject <id>', 'who the user is (the `sub` claim)')
  .option('--role <role>', 'a role of config/permissions.json other than public (default: authenticated)')
  .option('--expires-in-hours <hours>', 'lifetime', (value) => Number(value), 24)
  .action(async (flags: { subject: string; role?: string; expiresInHours: number }) => {
    const secret = jwtSecret(process.env);
    if (secret === undefined) throw new TokenError('set JWT_SECRET to a long random secret (the server must run with the same value)');
    if (!(Number.isInteger(flags.expiresInHours) && flags.expiresInHours > 0)) throw new TokenError('--expires-in-hours must be a whole number of hours, at least 1');
    process.stdout.write(`${await signUserJwt({ subject: flags.subject, expiresInHours: flags.expiresInHours, ...(flags.role ? { role: flags.role } : {}) }, secret)}\n`);
  });

/** Known failures become one readable block and exit code 1; anything else is a bug, shown whole. */
function fail(error: unknown): void {
  process.stderr.write(describeError(error));
  process.exitCode = 1;
}

addExamples(program);
let settled = false;
// A command whose work stops waiting on something that can no longer happen (a stream that never
// ends) lets node exit with code 0 as if it had succeeded: that is a failure, said as one.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  process.stderr.write('capi: the command stopped before it finished (a bug in capi: please report it); nothing it reported as done can be trusted\n');
  process.exitCode = 1;
});
program
  .parseAsync(process.argv)
  .catch(fail)
  .finally(() => (settled = true));
