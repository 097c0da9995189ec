/**
 * One request to the API: the base URL, default and auth headers, JSON in and out, and failures
 * turned into CapiError values. `fetch` is injectable (tests, SSR frameworks, retries).
 */
import { errorFromResponse } from './errors.js';

/** An API token (`{ token }`, or a bare string as @strapi/client takes it) or a user's JWT (`{ jwt }`). */
export type AuthConfig = string | { readonly token: string } | { readonly jwt: string };

export interface ClientConfig {
  /** The API root, as for @strapi/client: `http://localhost:1337/api` (in a browser also `/api`). */
  readonly baseURL: string;
  readonly auth?: AuthConfig;
  /** Defaults to the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The GraphQL endpoint; defaults to `/graphql` beside the base URL (`http://host/api` → `http://host/graphql`). */
  readonly graphqlURL?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type HttpRequest = {
  readonly method: Method;
  /** A JSON body, or form data (uploads). */
  readonly body?: unknown;
} & ({ /** Below the base URL, with its query string. */ readonly path: string } | { /** Absolute (the GraphQL endpoint, whose error answers are returned, not thrown). */ readonly url: string });

export class HttpClient {
  private readonly baseURL: string;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Readonly<Record<string, string>>;
  private bearer: string | undefined;

  constructor(config: ClientConfig) {
    // In a browser a path (`/api`) is relative to the page, as fetch would take it.
    const url = new URL(config.baseURL, typeof location === 'undefined' ? undefined : location.href);
    this.baseURL = url.toString().replace(/\/+$/, '');
    this.fetchImpl = config.fetch ?? globalThis.fetch.bind(globalThis);
    this.headers = config.headers ?? {};
    this.bearer = bearerOf(config.auth);
  }

  /** The token sent as `Authorization: Bearer`, replaced on sign-in; undefined signs out. */
  setBearer(token: string | undefined): void {
    this.bearer = token;
  }

  get url(): string {
    return this.baseURL;
  }

  /** The parsed JSON answer, or undefined for 204 No Content. Throws CapiError for a non-2xx answer. */
  async send(request: HttpRequest): Promise<unknown> {
    const url = 'url' in request ? request.url : `${this.baseURL}${request.path}`;
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers };
    if (this.bearer !== undefined) headers.authorization = `Bearer ${this.bearer}`;
    let body: BodyInit | undefined;
    if (request.body instanceof FormData) body = request.body;
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const response = await this.fetchImpl(url, { method: request.method, headers, ...(body === undefined ? {} : { body }) });
    // GraphQL answers its errors in its own shape, whatever the status: the caller reads them.
    if (!response.ok && 'url' in request && response.headers.get('content-type')?.includes('json')) return response.json();
    if (!response.ok) throw await errorFromResponse(response, { method: request.method, url });
    if (response.status === 204) return undefined;
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  }
}

function bearerOf(auth: AuthConfig | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if (typeof auth === 'string') return auth;
  return 'token' in auth ? auth.token : auth.jwt;
}
