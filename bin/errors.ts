/**
 * How the CLI shows a failure: the errors capi expects (bad schemas, refused migrations, build,
 * install, config and database failures) as the message a user acts on; anything else is a bug
 * and is shown with its stack. Shared by one-shot commands and `capi develop`, which keeps going.
 */
import { formatDiagnostic, SchemaError } from '../generator/diagnostics.ts';
import { BuildError, ProviderMismatchError } from '../generator/generate.ts';
import { InstallError } from '../generator/install.ts';
import { DataLossError, MigrationDiffError } from '../generator/migrations.ts';
import { ConfigError } from '../templates/runtime/config.ts';
import { DatabaseOpenError } from '../templates/runtime/database.ts';
import { MigrationError } from '../templates/runtime/migrate.ts';
import { TokenError } from '../templates/runtime/tokens.ts';
import { ArchiveError } from '../templates/runtime/transfer/archive-reader.ts';
import { ImportError } from '../templates/runtime/transfer/insert-batches.ts';
import { ImportLimitError } from '../templates/runtime/transfer/limits.ts';
import { PermissionsCommandError } from './permissions.ts';
import { TransferCommandError } from './transfer.ts';
import { UserCommandError } from './user.ts';

const expected = [
  DataLossError,
  ProviderMismatchError,
  BuildError,
  InstallError,
  MigrationDiffError,
  TokenError,
  UserCommandError,
  PermissionsCommandError,
  TransferCommandError,
  ArchiveError,
  ImportError,
  ImportLimitError,
  ConfigError,
  DatabaseOpenError,
  MigrationError,
] as const;

/** The text to print for `error`, ending with a newline. */
export function describeError(error: unknown): string {
  if (error instanceof SchemaError) return `${error.diagnostics.map(formatDiagnostic).join('\n')}\n\n${error.message}\n`;
  if (expected.some((type) => error instanceof type)) return `capi: ${(error as Error).message}\n`;
  return `capi: unexpected error\n${error instanceof Error ? error.stack : String(error)}\n`;
}
