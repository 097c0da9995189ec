/**
 * The client: `client.collection(plural)`, `client.single(singular)`, `client.files` and
 * `client.auth`, with @strapi/client's method names and arguments (an existing call keeps its
 * arguments) and result types computed from each query (types.ts).
 *
 * Nothing here depends on the project: the generated src/index.ts binds it to the project's
 * schema (src/schema.ts), so the routes are the REST API's own, `/<plural>[/<documentId>]`,
 * `/<singular>`, `/upload`, `/auth/*` and `/users/me`, below the base URL.
 */
import { HttpClient, type ClientConfig } from './http.js';
import { withQuery } from './query-string.js';
import type { DocumentResponse, Entry, ListResponse, ReadQuery, Registry, WriteQuery } from './types.js';

/** What src/schema.ts tells the client about the project. */
export interface ClientSchema {
  readonly types: Registry;
  /** Collection types by plural name → uid. */
  readonly collections: { readonly [plural: string]: string };
  /** Single types by singular name → uid. */
  readonly singles: { readonly [singular: string]: string };
  /** Create and update bodies by uid. */
  readonly inputs: { readonly [uid: string]: { readonly create: object; readonly update: object } };
}

type Types<S extends ClientSchema> = S['types'];
type InputOf<S extends ClientSchema, U, Kind extends 'create' | 'update'> = U extends keyof S['inputs'] ? S['inputs'][U][Kind] : never;
type CreateInput<S extends ClientSchema, U, Q> = Q extends { readonly status: 'draft' } ? InputOf<S, U, 'update'> : InputOf<S, U, 'create'>;

/** `locale` and `status` of a delete: which version goes. */
export interface DeleteQuery {
  readonly locale?: string;
  readonly status?: 'draft' | 'published';
}

export class CollectionTypeManager<S extends ClientSchema, U extends string> {
  constructor(
    private readonly http: HttpClient,
    private readonly path: string,
  ) {}

  find<const Q extends ReadQuery<Types<S>, U> = {}>(query?: Q): Promise<ListResponse<Entry<Types<S>, U, Q>>> {
    return this.http.send({ method: 'GET', path: withQuery(this.path, query) }) as Promise<ListResponse<Entry<Types<S>, U, Q>>>;
  }

  findOne<const Q extends ReadQuery<Types<S>, U> = {}>(documentId: string, query?: Q): Promise<DocumentResponse<Entry<Types<S>, U, Q>>> {
    return this.http.send({ method: 'GET', path: withQuery(`${this.path}/${encodeURIComponent(documentId)}`, query) }) as Promise<DocumentResponse<Entry<Types<S>, U, Q>>>;
  }

  /** Required attributes are required, except in a draft (`{ status: 'draft' }`), which may be partial. */
  create<const Q extends WriteQuery<Types<S>, U> = {}>(data: CreateInput<S, U, Q>, query?: Q): Promise<DocumentResponse<Entry<Types<S>, U, Q>>> {
    return this.http.send({ method: 'POST', path: withQuery(this.path, query), body: { data } }) as Promise<DocumentResponse<Entry<Types<S>, U, Q>>>;
  }

  update<const Q extends WriteQuery<Types<S>, U> = {}>(documentId: string, data: InputOf<S, U, 'update'>, query?: Q): Promise<DocumentResponse<Entry<Types<S>, U, Q>>> {
    const path = withQuery(`${this.path}/${encodeURIComponent(documentId)}`, query);
    return this.http.send({ method: 'PUT', path, body: { data } }) as Promise<DocumentResponse<Entry<Types<S>, U, Q>>>;
  }

  /** Resolves once the document (or the version `query` names) is gone; the server answers 204. */
  async delete(documentId: string, query?: DeleteQuery): Promise<void> {
    await this.http.send({ method: 'DELETE', path: withQuery(`${this.path}/${encodeURIComponent(documentId)}`, query) });
  }
}

export class SingleTypeManager<S extends ClientSchema, U extends string> {
  constructor(
    private readonly http: HttpClient,
    private readonly path: string,
  ) {}

  find<const Q extends ReadQuery<Types<S>, U> = {}>(query?: Q): Promise<DocumentResponse<Entry<Types<S>, U, Q>>> {
    return this.http.send({ method: 'GET', path: withQuery(this.path, query) }) as Promise<DocumentResponse<Entry<Types<S>, U, Q>>>;
  }

  update<const Q extends WriteQuery<Types<S>, U> = {}>(data: InputOf<S, U, 'update'>, query?: Q): Promise<DocumentResponse<Entry<Types<S>, U, Q>>> {
    return this.http.send({ method: 'PUT', path: withQuery(this.path, query), body: { data } }) as Promise<DocumentResponse<Entry<Types<S>, U, Q>>>;
  }

  async delete(query?: DeleteQuery): Promise<void> {
    await this.http.send({ method: 'DELETE', path: withQuery(this.path, query) });
  }
}

/** `/graphql` beside the REST API: `http://host/api` → `http://host/graphql`. */
function graphqlUrlBesides(baseURL: string): string {
  const url = new URL(baseURL);
  url.pathname = `${url.pathname.replace(/\/api\/?$/, '').replace(/\/$/, '')}/graphql`;
  return url.toString();
}

export const FILE_UID = 'plugin::upload.file';
export const USER_UID = 'plugin::users-permissions.user';

/** What an upload may say about each file. */
export interface FileInfo {
  readonly name?: string;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
}

/** A file as the upload routes answer it. */
export type FileEntry<R extends Registry, Q = {}> = Entry<R, typeof FILE_UID, Q> & { readonly isUrlSigned: boolean };

export interface UploadOptions {
  /** One for all files, or one per file in order. */
  readonly fileInfo?: FileInfo | readonly FileInfo[];
}

/** For bytes that are not a Blob (a Node Buffer): the name and type the Blob would carry. */
export interface BytesUploadOptions extends UploadOptions {
  readonly filename: string;
  readonly mimetype: string;
}

export type FileQuery<R extends Registry> = ReadQuery<R, typeof FILE_UID>;

export class FilesManager<S extends ClientSchema> {
  constructor(private readonly http: HttpClient) {}

  find<const Q extends FileQuery<Types<S>> = {}>(query?: Q): Promise<FileEntry<Types<S>, Q>[]> {
    return this.http.send({ method: 'GET', path: withQuery('/upload/files', query) }) as Promise<FileEntry<Types<S>, Q>[]>;
  }

  findOne<const Q extends FileQuery<Types<S>> = {}>(fileId: number, query?: Q): Promise<FileEntry<Types<S>, Q>> {
    return this.http.send({ method: 'GET', path: withQuery(`/upload/files/${fileId}`, query) }) as Promise<FileEntry<Types<S>, Q>>;
  }

  /** Uploads files to the media library (multipart `files`, JSON `fileInfo`); answers them in order. */
  upload(file: Blob | readonly Blob[], options?: UploadOptions): Promise<FileEntry<Types<S>>[]>;
  upload(file: Uint8Array, options: BytesUploadOptions): Promise<FileEntry<Types<S>>[]>;
  upload(file: Blob | readonly Blob[] | Uint8Array, options?: UploadOptions | BytesUploadOptions): Promise<FileEntry<Types<S>>[]> {
    const form = new FormData();
    const blobs = file instanceof Uint8Array ? [bytesBlob(file, options)] : Array.isArray(file) ? (file as readonly Blob[]) : [file as Blob];
    const name = options !== undefined && 'filename' in options ? options.filename : undefined;
    for (const blob of blobs) {
      if (name !== undefined) form.append('files', blob, name);
      else form.append('files', blob);
    }
    if (options?.fileInfo !== undefined) form.append('fileInfo', JSON.stringify(options.fileInfo));
    return this.http.send({ method: 'POST', path: '/upload', body: form }) as Promise<FileEntry<Types<S>>[]>;
  }

  /** Changes a file's name, alternative text or caption (`POST /upload?id=`). */
  update(fileId: number, fileInfo: FileInfo): Promise<FileEntry<Types<S>>> {
    const form = new FormData();
    form.append('fileInfo', JSON.stringify(fileInfo));
    return this.http.send({ method: 'POST', path: `/upload?id=${fileId}`, body: form }) as Promise<FileEntry<Types<S>>>;
  }

  /** Deletes a file; answers it as it was. */
  delete(fileId: number): Promise<FileEntry<Types<S>>> {
    return this.http.send({ method: 'DELETE', path: `/upload/files/${fileId}` }) as Promise<FileEntry<Types<S>>>;
  }
}

function bytesBlob(bytes: Uint8Array, options: UploadOptions | BytesUploadOptions | undefined): Blob {
  const type = options !== undefined && 'mimetype' in options ? options.mimetype : 'application/octet-stream';
  return new Blob([new Uint8Array(bytes)], { type });
}

export type User<R extends Registry, Q = {}> = Entry<R, typeof USER_UID, Q>;

/** A signed-in user: the JWT to send, and the account. */
export interface SignedIn<U> {
  readonly jwt: string;
  readonly user: U;
}

export interface LoginInput {
  /** Username or email. */
  readonly identifier: string;
  readonly password: string;
}

export interface RegisterInput {
  readonly username: string;
  readonly email: string;
  readonly password: string;
  /** Attributes the project added to its user type, when `register.allowedFields` lets them in. */
  readonly [extra: string]: unknown;
}

export interface ResetPasswordInput {
  readonly code: string;
  readonly password: string;
  readonly passwordConfirmation: string;
}

export interface ChangePasswordInput {
  readonly currentPassword: string;
  readonly password: string;
  readonly passwordConfirmation: string;
}

/**
 * users-permissions' sign-in routes. A call that answers a JWT (login, register without email
 * confirmation, password reset and change) makes the client send it from then on.
 */
export class AuthManager<S extends ClientSchema> {
  constructor(private readonly http: HttpClient) {}

  async login(input: LoginInput): Promise<SignedIn<User<Types<S>>>> {
    return this.signIn(await this.http.send({ method: 'POST', path: '/auth/local', body: input }));
  }

  /** `jwt` is absent when the account must confirm its email first. */
  async register(input: RegisterInput): Promise<{ readonly jwt?: string; readonly user: User<Types<S>> }> {
    const answer = (await this.http.send({ method: 'POST', path: '/auth/local/register', body: input })) as { jwt?: string; user: User<Types<S>> };
    if (answer.jwt !== undefined) this.http.setBearer(answer.jwt);
    return answer;
  }

  /** The signed-in user (`GET /users/me`), with `populate`/`fields` as for any read. */
  me<const Q extends ReadQuery<Types<S>, typeof USER_UID> = {}>(query?: Q): Promise<User<Types<S>, Q>> {
    return this.http.send({ method: 'GET', path: withQuery('/users/me', query) }) as Promise<User<Types<S>, Q>>;
  }

  forgotPassword(input: { readonly email: string }): Promise<{ readonly ok: true }> {
    return this.http.send({ method: 'POST', path: '/auth/forgot-password', body: input }) as Promise<{ readonly ok: true }>;
  }

  async resetPassword(input: ResetPasswordInput): Promise<SignedIn<User<Types<S>>>> {
    return this.signIn(await this.http.send({ method: 'POST', path: '/auth/reset-password', body: input }));
  }

  async changePassword(input: ChangePasswordInput): Promise<SignedIn<User<Types<S>>>> {
    return this.signIn(await this.http.send({ method: 'POST', path: '/auth/change-password', body: input }));
  }

  sendEmailConfirmation(input: { readonly email: string }): Promise<{ readonly email: string; readonly sent: true }> {
    return this.http.send({ method: 'POST', path: '/auth/send-email-confirmation', body: input }) as Promise<{ readonly email: string; readonly sent: true }>;
  }

  /** Sends this JWT (or API token) from now on. */
  setToken(token: string): void {
    this.http.setBearer(token);
  }

  /** Stops sending a token: requests act as the public role. */
  logout(): void {
    this.http.setBearer(undefined);
  }

  private signIn(answer: unknown): SignedIn<User<Types<S>>> {
    const signedIn = answer as SignedIn<User<Types<S>>>;
    this.http.setBearer(signedIn.jwt);
    return signedIn;
  }
}

/**
 * A GraphQL document typed with its result and variables: what graphql-codegen's client preset
 * generates (`TypedDocumentString` with `documentMode: 'string'`), or a plain string (untyped).
 */
export interface TypedDocument<Result, Variables> {
  /** Phantom: carries the types only, as codegen's documents do. */
  readonly __apiType?: (variables: Variables) => Result;
  toString(): string;
}

export type ResultOf<D> = D extends string ? unknown : D extends TypedDocument<infer R, infer _V> ? R : unknown;
export type VariablesOf<D> = D extends string ? Record<string, unknown> : D extends TypedDocument<infer _R, infer V> ? V : Record<string, unknown>;

/** A GraphQL answer with `errors`: thrown with the partial `data` and every error. */
export class GraphqlError extends Error {
  override readonly name = 'GraphqlError';
  constructor(
    readonly errors: readonly { readonly message: string; readonly path?: readonly (string | number)[]; readonly extensions?: Readonly<Record<string, unknown>> }[],
    readonly data: unknown,
  ) {
    super(errors.map((e) => e.message).join('; '));
  }
}

/** @strapi/client's manager options: `path` replaces the route (a custom route serving the type). */
export interface ManagerOptions {
  /** Below the base URL, e.g. `/blog/posts`. */
  readonly path?: string;
}

export interface CapiClient<S extends ClientSchema> {
  /** The API root requests go to. */
  readonly baseURL: string;
  collection<P extends keyof S['collections'] & string>(resource: P, options?: ManagerOptions): CollectionTypeManager<S, S['collections'][P] & string>;
  single<N extends keyof S['singles'] & string>(resource: N, options?: ManagerOptions): SingleTypeManager<S, S['singles'][N] & string>;
  readonly files: FilesManager<S>;
  readonly auth: AuthManager<S>;
  /**
   * Runs a GraphQL operation at `graphqlURL` (default: `/graphql` beside the REST base URL), with
   * the client's auth.
   * With a graphql-codegen document the result and variables are typed.
   */
  graphql<D extends TypedDocument<unknown, never> | string>(document: D, variables?: VariablesOf<D>): Promise<ResultOf<D>>;
}

export function createSchemaClient<S extends ClientSchema>(config: ClientConfig): CapiClient<S> {
  const http = new HttpClient(config);
  const graphqlUrl = config.graphqlURL ?? graphqlUrlBesides(http.url);
  return {
    baseURL: http.url,
    async graphql(document, variables) {
      const answer = (await http.send({ method: 'POST', url: graphqlUrl, body: { query: document.toString(), ...(variables === undefined ? {} : { variables }) } })) as
        { data?: unknown; errors?: GraphqlError['errors'] } | undefined;
      if (answer === undefined || (answer.errors !== undefined && answer.errors.length > 0)) throw new GraphqlError(answer?.errors ?? [{ message: 'Empty GraphQL answer' }], answer?.data ?? null);
      return answer.data as never;
    },
    collection: (resource, options) => new CollectionTypeManager(http, options?.path ?? `/${encodeURIComponent(resource)}`),
    single: (resource, options) => new SingleTypeManager(http, options?.path ?? `/${encodeURIComponent(resource)}`),
    files: new FilesManager<S>(http),
    auth: new AuthManager<S>(http),
  };
}
