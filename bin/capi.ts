/**
 * capi's command line. Each command is a thin shell over generator/: it parses flags, runs the
 * pipeline with a console reporter and turns known errors into messages and exit code 1.
 */
import { Command, Option } from 'commander';
import { formatDiagnostic, SchemaError } from '../generator/diagnostics.ts';
import { BuildError, generate, loadModel, ProviderMismatchError } from '../generator/generate.ts';
import { DataLossError, MigrationDiffError } from '../generator/migrations.ts';
import { consoleReporter } from '../generator/steps.ts';
import { ConfigError } from '../templates/runtime/config.ts';
import { DatabaseOpenError } from '../templates/runtime/database.ts';
import { MigrationError } from '../templates/runtime/migrate.ts';
import { tokenTypes, TokenError, type TokenType } from '../templates/runtime/tokens.ts';
import { jwtSecret, signUserJwt } from '../templates/runtime/user-jwt.ts';
import { createToken, listTokens, revokeToken } from './token.ts';
import { createUser, listUsers, setBlocked, UserCommandError } from './user.ts';

const program = new Command()
  .name('capi')
  .description('Generate a typed, Strapi 5 compatible API server from content-type schemas.')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

program
  .command('generate')
  .description('validate the content types and (re)generate the server project, with a migration for any schema change')
  .option('--content-types <dir>', 'folder of schema files (flat layout or a Strapi project)', 'content-types')
  .option('--out <dir>', 'output folder of the generated project', 'generated')
  .addOption(
    new Option('--database <client>', 'database of the generated project (default: what --out was generated for, else sqlite)').choices([
      'sqlite',
      'postgres',
    ]),
  )
  .option('--check', 'generate in memory and exit 1 listing every file that differs from --out (for CI)', false)
  .option('--accept-data-loss', 'allow a migration that drops or rewrites tables or columns', false)
  .option('--skip-build', 'do not type-check and compile the generated project', false)
  .option('--quiet', 'print errors only', false)
  .action(async (flags: { contentTypes: string; out: string; database?: 'sqlite' | 'postgres'; check: boolean; acceptDataLoss: boolean; skipBuild: boolean; quiet: boolean }) => {
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
  .command('validate')
  .description('check the content-type schemas and report every problem, without generating anything')
  .option('--content-types <dir>', 'folder of schema files (flat layout or a Strapi project)', 'content-types')
  .action(async (flags: { contentTypes: string }) => {
    const report = consoleReporter();
    await loadModel(flags.contentTypes, report);
    report.info('content types are valid');
  });

const token = program.command('token').description("manage the API tokens of a generated project (Authorization: Bearer <token>); needs API_TOKEN_SALT");
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

token.command('list').description('list tokens (never their secret)').addOption(projectOption()).action((flags: { project: string }) => listTokens(flags));

token
  .command('revoke')
  .description('delete a token: requests using it get 401 from then on')
  .argument('<name>', 'the token to revoke')
  .addOption(projectOption())
  .action((name: string, flags: { project: string }) => revokeToken({ ...flags, name }));

const user = program.command('user').description("manage the users-permissions accounts of a generated project (sign-in at POST /api/auth/local)");

user
  .command('create')
  .description("create a confirmed user (password hashed with bcrypt, as Strapi does)")
  .requiredOption('--email <email>', 'their email address')
  .requiredOption('--username <name>', 'a unique username')
  .requiredOption('--password <password>', 'at least 6 characters')
  .option('--role <role>', 'a role of config/permissions.json (default: the default role, authenticated)')
  .addOption(projectOption())
  .action((flags: { email: string; username: string; password: string; role?: string; project: string }) => createUser(flags));

user.command('list').description('list users (never their password)').addOption(projectOption()).action((flags: { project: string }) => listUsers(flags));

for (const [name, blocked] of [['block', true], ['unblock', false]] as const) {
  user
    .command(name)
    .description(blocked ? 'block a user: they cannot sign in and their tokens stop working' : 'let a blocked user sign in again')
    .argument('<identifier>', 'username or email')
    .addOption(projectOption())
    .action((identifier: string, flags: { project: string }) => setBlocked({ ...flags, identifier, blocked }));
}

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
  if (error instanceof SchemaError) {
    process.stderr.write(`${error.diagnostics.map(formatDiagnostic).join('\n')}\n\n${error.message}\n`);
  } else if (
    error instanceof DataLossError ||
    error instanceof ProviderMismatchError ||
    error instanceof BuildError ||
    error instanceof MigrationDiffError ||
    error instanceof TokenError ||
    error instanceof UserCommandError ||
    error instanceof ConfigError ||
    error instanceof DatabaseOpenError ||
    error instanceof MigrationError
  ) {
    process.stderr.write(`capi: ${error.message}\n`);
  } else {
    process.stderr.write(`capi: unexpected error\n${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exitCode = 1;
}

program.parseAsync(process.argv).catch(fail);
