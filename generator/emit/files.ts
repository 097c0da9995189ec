/**
 * What every emitter returns: files in memory, with who owns them once written.
 * - `owned`: capi rewrites it on every generation and deletes it when it is no longer emitted.
 * - `create-once`: written only if missing (config the user edits afterwards).
 */
export interface EmittedFile {
  /** Path relative to the output directory, with forward slashes. */
  readonly path: string;
  readonly contents: string;
  readonly policy: 'owned' | 'create-once';
}
