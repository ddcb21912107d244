import type { Hooks } from 'ky';
import { isBrowser, readEnv } from '../internal/runtime.js';
import { type ClientClock, realClock } from './clock.js';
import { ConfigurationError } from './errors.js';
import type { FetchOptions, Logger, LogLevel } from './types.js';

/** The key prefix each environment of spec section 5 accepts. */
export const environmentKeyPrefixes = {
  production: 'pk_live_',
  sandbox: 'pk_sandbox_',
} as const;

/** `production` or `sandbox`. */
export type Environment = keyof typeof environmentKeyPrefixes;

/**
 * Options of {@link PayoutClient}; only the key and the base URL are needed. `undefined` is "not given", so
 * `apiKey: process.env.INR_PAYOUTS_API_KEY` compiles under `exactOptionalPropertyTypes`.
 */
export interface ClientOptions {
  /** `pk_live_...` or `pk_sandbox_...`. Defaults to `INR_PAYOUTS_API_KEY`. */
  apiKey?: string | undefined;
  /** Checked against the key's prefix. Defaults to the key's. */
  environment?: Environment | undefined;
  /** The address the service issued you for this environment. Defaults to `INR_PAYOUTS_BASE_URL`. */
  baseUrl?: string | undefined;
  /** `baseUrl` as openai-node spells it. */
  baseURL?: string | undefined;
  /** Milliseconds one attempt may take. Default 30,000. */
  timeout?: number | undefined;
  /** Milliseconds one call may take, retries included. Default 120,000. */
  deadline?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Longest wait a 429 may ask for before the client gives up instead of waiting. Default 60,000 ms. */
  maxRetryAfter?: number | undefined;
  /** A `fetch` to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch | undefined;
  /** Receives the log lines at `logLevel` and above, never with the API key. Default: `console`. */
  logger?: Logger | undefined;
  /** Defaults to `INR_PAYOUTS_LOG`, else `debug` with a `logger` and `warn` with `console`. */
  logLevel?: LogLevel | undefined;
  /** Given to every `fetch` of the client (for example `dispatcher` for a proxy, `keepalive`). */
  fetchOptions?: FetchOptions | undefined;
  /** For `client.webhooks.unwrap`; several while rotating. Defaults to `INR_PAYOUTS_WEBHOOK_SECRET`. */
  webhookSecret?: string | readonly string[] | undefined;
  /** The clock every wait runs on (back-off, 429 waits, `deadline`, `waitFor...`); `timeout` stays real. */
  clock?: ClientClock | undefined;
  /** Headers sent on every request. */
  defaultHeaders?: Record<string, string> | undefined;
  /** ky's hooks, run on every request: tracing, logging, metrics. The `Authorization` they see is masked. */
  hooks?: Hooks | undefined;
  /** Run in a browser page anyway: only for internal tools, as the key ships to every visitor (spec 5.6). */
  dangerouslyAllowBrowser?: boolean | undefined;
}

/** {@link ClientOptions} with every default applied and every rule checked. */
export interface ResolvedClientOptions {
  apiKey: string;
  environment: Environment;
  baseUrl: string;
  timeout: number;
  deadline: number;
  maxRetries: number;
  maxRetryAfter: number;
  fetch: typeof fetch | undefined;
  logger: Logger;
  defaultHeaders: Record<string, string>;
  hooks: Hooks | undefined;
  clock: ClientClock;
  fetchOptions: FetchOptions | undefined;
  webhookSecret: string | readonly string[] | undefined;
}

/** The numeric options' defaults: milliseconds, and retries. */
const defaults = { timeout: 30_000, deadline: 120_000, maxRetries: 2, maxRetryAfter: 60_000 };

const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** Only the methods at `level` and above, so a line below it costs nothing to skip. */
function levelled(logger: Logger | undefined, level: LogLevel | undefined): Logger {
  const chosen = level ?? (logger ? 'debug' : 'warn');
  if (chosen !== 'off' && !LEVELS.includes(chosen)) {
    throw new ConfigurationError(`logLevel must be off, error, warn, info or debug; got "${chosen}".`);
  }
  const target: Logger = logger ?? console;
  const out: Logger = {};
  for (const name of LEVELS.slice(0, LEVELS.indexOf(chosen as (typeof LEVELS)[number]) + 1)) {
    const method = target[name];
    if (method) out[name] = method.bind(target);
  }
  return out;
}

/** Applies defaults and refuses configurations that cannot work, before any request is made. */
export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    throw new ConfigurationError(
      'PayoutClient refuses to run in a browser, where every visitor would get the API key: call the service ' +
        'from your backend (or pass dangerouslyAllowBrowser: true for an internal tool).',
    );
  }
  const apiKey = options.apiKey ?? readEnv('INR_PAYOUTS_API_KEY');
  if (!apiKey) {
    throw new ConfigurationError(
      'No API key: pass apiKey or set INR_PAYOUTS_API_KEY (a pk_live_ or pk_sandbox_ key from your dashboard).',
    );
  }
  // A copy-paste accident that would otherwise fail inside fetch, with the key quoted in the error.
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigurationError(
      'The API key contains whitespace, control or non-ASCII characters: copy it again from your dashboard ' +
        '(a pk_live_ or pk_sandbox_ key is one word of printable ASCII).',
    );
  }
  const keyEnvironment = (Object.keys(environmentKeyPrefixes) as Environment[]).find((environment) =>
    apiKey.startsWith(environmentKeyPrefixes[environment]),
  );
  if (!keyEnvironment) {
    throw new ConfigurationError(
      'The API key must start with pk_live_ or pk_sandbox_; check that the whole key was copied.',
    );
  }
  const environment = options.environment ?? keyEnvironment;
  if (environment !== keyEnvironment) {
    throw new ConfigurationError(
      `A ${environmentKeyPrefixes[keyEnvironment]} key cannot be used with the ${environment} environment: ` +
        `use a ${environmentKeyPrefixes[environment]} key, or set environment: '${keyEnvironment}'.`,
    );
  }
  const baseUrl = options.baseUrl ?? options.baseURL ?? readEnv('INR_PAYOUTS_BASE_URL');
  if (!baseUrl) {
    throw new ConfigurationError(
      `No base URL: pass baseUrl (or set INR_PAYOUTS_BASE_URL) to the service's ${environment} address.`,
    );
  }
  if (!URL.canParse(baseUrl)) {
    throw new ConfigurationError(
      `baseUrl must be an absolute URL such as https://sandbox.example.com; got "${baseUrl}".`,
    );
  }
  const numbers = { ...defaults };
  for (const name of Object.keys(defaults) as (keyof typeof defaults)[]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!(Number.isFinite(value) && value >= 0)) {
      throw new ConfigurationError(
        `${name} must be a non-negative number of milliseconds or retries; got ${value}.`,
      );
    }
    numbers[name] = value;
  }
  return {
    apiKey,
    environment,
    baseUrl: new URL(baseUrl).href.replace(/\/+$/, ''),
    ...numbers,
    fetch: options.fetch,
    logger: levelled(
      options.logger,
      options.logLevel ?? (readEnv('INR_PAYOUTS_LOG') as LogLevel | undefined),
    ),
    defaultHeaders: options.defaultHeaders ?? {},
    hooks: options.hooks,
    clock: options.clock ?? realClock,
    fetchOptions: options.fetchOptions,
    webhookSecret: options.webhookSecret ?? readEnv('INR_PAYOUTS_WEBHOOK_SECRET'),
  };
}
