/** The part of s3rver (an S3-compatible server for tests; it ships no types) that the tests use. */
declare module 's3rver' {
  interface S3rverOptions {
    readonly port?: number;
    readonly address?: string;
    readonly silent?: boolean;
    readonly directory: string;
    readonly configureBuckets?: ReadonlyArray<{ readonly name: string; readonly configs: readonly string[] }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ readonly address: string; readonly port: number }>;
    close(): Promise<void>;
  }
}
