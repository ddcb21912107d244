/**
 * The standalone mock server: a `MockService` (`createMockService`) served over `node:http` through
 * `@hono/node-server`'s fetch adapter (no MSW). One router answers every request: the service's routes and the
 * server's own (`routes.ts`: the test helpers over HTTP `/__mock/...`, the end-user pages `/__pages/...`, the
 * inspector, the OpenAPI documents). The `url`s an answer hands out (pages, uploads) name the address the request
 * was sent to, or `publicUrl`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { describeError } from '../../src/shared/describe-error.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { MockServiceOptions } from '../engine/options.js';
import { errorBody, isNetworkError } from '../engine/respond.js';
import { methodNotAllowed } from '../http/dispatch.js';
import type { MockRouter } from '../http/router.js';
import { SANDBOX_DEFAULTS } from '../sandbox-values.js';
import { dispatchWith, type MockService, mockServiceWithInternals } from '../service.js';
import { BodyTooLargeError, hasBody, readBody } from './body-limit.js';
import { isLoopback, refusal } from './guard.js';
import { HELPERS_PREFIX } from './helpers-api.js';
import type { StateFile } from './persistence.js';
import { serverRoutes } from './routes.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1` (local only). */
  host?: string;
  /**
   * The URL clients reach the server at, when it is not the address they send requests to (a proxy rewriting
   * `Host`, a TLS terminator): the absolute URLs answers hand out (pages, uploads, the documents' server) start
   * with it. Without it they name the address each request was sent to (its `Host`). Absolute, http or https.
   */
  publicUrl?: string;
  /** Options of the service; its `baseUrl` is always this server's address. */
  service?: Omit<MockServiceOptions, 'baseUrl'>;
  /**
   * The state file (`openStateFile`) the server keeps its state in: the state it holds is served, and each
   * request's changes are saved before its answer is written (a save that fails is that request's 500). The
   * server closes it when it closes.
   */
  stateFile?: StateFile;
}

/** A running server: its URL, its service and its `node:http` server. */
export type RunningMockServer = Awaited<ReturnType<typeof startMockServer>>;

/** The mock's own failure: a 500 saying what failed. */
const internalError = (message: string) =>
  refusal(500, 'Internal Server Error', message, { code: 'INTERNAL_ERROR' });

/** Methods a fetch `Request` cannot carry (fetch forbids them), answered before the request is served. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** What the server's own routes serve, for `Allow`. */
const SERVER_METHODS = ['GET', 'HEAD', 'POST'];

function refuseForbiddenMethod(router: MockRouter, method: string, url: string): Response {
  const { pathname } = new URL(url);
  if (router.find('GET', pathname)?.endpoint.kind === 'local')
    return methodNotAllowed(method, pathname, SERVER_METHODS);
  const allow = router.allowed(pathname);
  return allow.length > 0 ? methodNotAllowed(method, pathname, allow) : notFound(method, pathname);
}

function notFound(method: string, path: string): Response {
  return refusal(
    404,
    'Not Found',
    `No endpoint ${method} ${path}: the API is under /v2 (GET /openapi.json lists its endpoints), the test helpers under ${HELPERS_PREFIX}`,
  );
}

/** A request node parsed but no URL can be made of (its target or its `Host`): the client's mistake, a 400. */
function badTarget(error: unknown): Response {
  if (!(error instanceof RequestError))
    return internalError(`The mock failed while handling this request: ${describeError(error)}`);
  return refusal(
    400,
    'Bad Request',
    `The request names no URL the mock can read (${error.message}): send a path beginning with / and a Host such as 127.0.0.1:4010`,
    { code: 'BAD_REQUEST' },
  );
}

/** The caller's address as the allow-list compares it (IPv4-mapped IPv6 unwrapped). */
function unmapped(address: string | undefined): string {
  const text = address ?? '';
  return text.startsWith('::ffff:') ? text.slice(7) : text;
}

/** What {@link answerRequest} serves with. */
type Serving = ReturnType<typeof dispatchWith> & {
  service: MockService & ServiceInternals;
  publicUrl: string | undefined;
};

async function answerRequest(
  serving: Serving,
  request: Request,
  incoming: IncomingMessage,
): Promise<Response> {
  const { method } = request;
  if (FORBIDDEN_METHODS.has(method.toUpperCase()))
    return refuseForbiddenMethod(serving.router, method, request.url);
  // The body, read within the limit, goes to `rawBody`, where the adapter's request reads it from.
  if (hasBody(incoming)) {
    try {
      Object.assign(incoming, { rawBody: await readBody(incoming) });
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      // The connection is not used again: a body not read to its end leaves it mid-request.
      return refusal(413, 'Payload Too Large', error.message, {}, { connection: 'close' });
    }
  }
  // The caller's address is the socket's: a client cannot choose its own (spec 5.5's allow-list).
  request.headers.set(SANDBOX_DEFAULTS.clientIpHeader, unmapped(incoming.socket.remoteAddress));
  const answer = await serving.dispatch(serving.service, request, {
    anyOrigin: true,
    publicUrl: serving.publicUrl,
    connection: { loopback: isLoopback(unmapped(incoming.socket.localAddress)) },
  });
  return answer ?? notFound(method, new URL(request.url).pathname);
}

/** The answer to every request while a bundle of `steps` steps is replayed: 503, to try again in a second. */
function replayingAnswer(steps: number): Response {
  return refusal(
    503,
    'Service Unavailable',
    `The mock is replaying a bundle of ${steps} steps and answers nothing (API, helpers, pages) until it has run the last one: try again in a moment`,
    { code: 'REPLAY_IN_PROGRESS' },
    { 'retry-after': '1' },
  );
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * A request target with the backslashes of its path read as `/`, as the URL parser reads a URL's (the adapter
 * refuses them outright): `/v2\account` is `/v2/account`.
 */
function slashed(target: string): string {
  return target.replace(/^[^?]*/, (path) => path.replaceAll('\\', '/'));
}

/** Answers one request: the service's answer, a 500 for anything that throws, saved before it goes out. */
async function handle(serving: Serving, request: Request, incoming: IncomingMessage, stateFile?: StateFile) {
  const mark = stateFile?.mark();
  let answer: Response;
  try {
    answer = await answerRequest(serving, request, incoming);
  } catch (error) {
    // Anything a handler throws is this request's 500; the server keeps serving the rest.
    answer = internalError(`The mock failed while handling this request: ${describeError(error)}`);
  }
  try {
    stateFile?.save(mark);
  } catch (error) {
    // An answer that cannot be kept becomes a 500 that says so.
    console.error('inr-payouts mock: could not save the state:', error);
    answer = internalError(`The mock could not save the state: ${describeError(error)}`);
  }
  // A network error (`Response.error()`: a drop fault) is a connection closed without an answer.
  if (isNetworkError(answer)) {
    incoming.socket.destroy();
    return RESPONSE_ALREADY_SENT;
  }
  return answer;
}

/** Starts a server and its service. */
export async function startMockServer(options: MockServerOptions = {}) {
  const host = options.host ?? '127.0.0.1';
  let listener: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  const server = createServer((req, res) => {
    if (!listener) {
      res.writeHead(503).end();
      return;
    }
    if (req.url?.includes('\\')) req.url = slashed(req.url);
    void listener(req, res);
  });
  // node:http hands CONNECT to this event, not to the request handler; without a listener it drops the
  // connection. A CONNECT is refused like any method the service does not serve.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify(
      errorBody('A', {
        error: 'Method Not Allowed',
        message: 'CONNECT is not served: this is the mock of an HTTP API, not a proxy',
        code: 'METHOD_NOT_ALLOWED',
      }),
    );
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${SERVER_METHODS.join(', ')}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${displayHost(host)}:${port}`;
  // A shared server's clock never waits for a receiver: `clock/advance` answers as fast with a silent one.
  const service = mockServiceWithInternals({ webhookWaitMs: 0, ...options.service, baseUrl: url });
  // Synchronously after listen resolved: no request is served before the state file's state is adopted.
  options.stateFile?.keep(service);
  // The steps of the bundle being replayed, until it has run its last step: nothing is served before, as a
  // request let in would take the place (an ID, a key) of the recording's own and change the run. The port is
  // open, so a caller learns why it waits.
  let replaying = options.service?.replay?.steps.length;
  const lift = () => {
    replaying = undefined;
  };
  if (replaying !== undefined) service.replayed.then(lift, lift);
  const serving: Serving = { service, ...dispatchWith(serverRoutes(service)), publicUrl: options.publicUrl };
  const { stateFile } = options;
  listener = getRequestListener(
    (request, env) => {
      if (replaying !== undefined) return replayingAnswer(replaying);
      // Served over node:http/1.1 only (createServer above), so the request is node's IncomingMessage.
      return handle(serving, request, env.incoming as IncomingMessage, stateFile);
    },
    // A request without a Host (HTTP/1.0) is read as sent to this server.
    { hostname: `${displayHost(host)}:${port}`, errorHandler: badTarget },
  );
  return {
    url,
    service: service as MockService,
    server,
    /** Stops accepting, drops idle connections and resolves when closed. */
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          try {
            options.stateFile?.close();
          } catch (closing) {
            reject(closing);
          }
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
