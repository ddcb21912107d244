/**
 * The standalone mock server: a `MockService` (`createMockService`), its dispatch served directly by
 * `node:http` (no MSW), plus the test helpers over HTTP (`/__mock/...`) and the end-user pages (`/__pages/...`).
 * The service is created once the port is known, because the `url`s it hands out (pages, uploads) must
 * point at this server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { describeError } from '../../src/shared/describe-error.js';
import type { ServiceInternals } from '../engine/internals.js';
import type { MockServiceOptions } from '../engine/options.js';
import { errorBody } from '../engine/respond.js';
import { methodNotAllowed } from '../http/dispatch.js';
import { type MockService, mockServiceWithInternals, serviceRouter } from '../service.js';
import { guardLocal, localContext, protect } from './guard.js';
import { HELPERS_PREFIX, serveHelper } from './helpers-api.js';
import { INSPECTOR_PATH, serveInspector } from './inspector/index.js';
import { BodyTooLargeError, hasBody, NO_BODY, readBody, toRequest, writeAnswer } from './node-http.js';
import { MOCK_OPENAPI_PATH, OPENAPI_METHODS, OPENAPI_PATH, serveOpenApi } from './openapi.js';
import { PAGES_PREFIX, servePage } from './pages.js';
import type { StateFile } from './persistence.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1` (local only). */
  host?: string;
  /** Options of the service; its `baseUrl` is always this server's address. */
  service?: Omit<MockServiceOptions, 'baseUrl'>;
  /** Called after every answered request (the state may have changed): the bin runs the clock's due work. */
  onRequest?: () => void;
  /**
   * The state file (`openStateFile`) the server keeps its state in: the state it holds is served, and each
   * request's changes are saved before its answer is written (a save that fails is that request's 500). The
   * server closes it when it closes.
   */
  stateFile?: StateFile;
}

/** A running server. */
export interface RunningMockServer {
  readonly url: string;
  readonly service: MockService;
  readonly server: Server;
  /** Stops accepting, drops idle connections and resolves when closed. */
  close(): Promise<void>;
}

function errorResponse(status: number, error: string, message: string, code?: string): Response {
  return Response.json(errorBody('A', { error, message, code }), { status });
}

/** Methods `new Request()` refuses (fetch forbids them), answered before a `Request` is built. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** What the server serves outside the route table, for `Allow`. */
const SERVER_METHODS = ['GET', 'HEAD', 'POST'];

function refuseForbiddenMethod(method: string, path: string): Response {
  if (
    path === HELPERS_PREFIX ||
    path.startsWith(`${HELPERS_PREFIX}/`) ||
    path.startsWith(`${PAGES_PREFIX}/`)
  ) {
    return methodNotAllowed(method, path, SERVER_METHODS);
  }
  const allow = serviceRouter().allowed(path);
  return allow.length > 0 ? methodNotAllowed(method, path, allow) : notFound(method, path);
}

function notFound(method: string, path: string): Response {
  return errorResponse(
    404,
    'Not Found',
    `No endpoint ${method} ${path}: the API is under /v2 (GET /openapi.json lists its endpoints), the test helpers under ${HELPERS_PREFIX}`,
  );
}

/**
 * A request target the URL parser would give back unchanged: an origin-form path of characters it keeps as
 * they are (no `.`, no `%`, ASCII only), and a query of such characters.
 */
const PLAIN_TARGET = /^\/[\w\-~/!$&'()*+,;=:@]*(?:\?[\w\-~./!$&()*+,;=:@?%]*)?$/;

/** The path and query (`''` or `?…`) of a request target, as the URL parser normalises them. */
function targetOf(raw: string): { pathname: string; search: string } {
  if (PLAIN_TARGET.test(raw)) {
    const query = raw.indexOf('?');
    if (query < 0) return { pathname: raw, search: '' };
    // An empty query (`/x?`) is no query, as the parser has it.
    return { pathname: raw.slice(0, query), search: query === raw.length - 1 ? '' : raw.slice(query) };
  }
  // Prefixed, not resolved: a path such as `//` or `//host/x` stays a path instead of naming a host.
  return new URL(raw.startsWith('/') ? `http://mock.invalid${raw}` : raw, 'http://mock.invalid');
}

async function answerRequest(
  service: MockService & ServiceInternals,
  req: IncomingMessage,
): Promise<Response> {
  const target = targetOf(req.url ?? '/');
  const method = (req.method ?? 'GET').toUpperCase();
  if (FORBIDDEN_METHODS.has(method)) {
    req.resume();
    return refuseForbiddenMethod(method, target.pathname);
  }
  let body = NO_BODY;
  try {
    if (hasBody(req)) body = await readBody(req);
    // Read to its end now, as a bare server does: node otherwise drains it only after the answer, at more cost.
    else req.resume();
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      const refused = errorResponse(413, 'Payload Too Large', error.message);
      // The connection is not used again: a body not read to its end leaves it mid-request.
      refused.headers.set('connection', 'close');
      return refused;
    }
    throw error;
  }
  // Whatever Host the client used (localhost, 127.0.0.1, a LAN name), the service answers under baseUrl.
  const url = `${service.baseUrl}${target.pathname}${target.search}`;
  const path = target.pathname;
  const local = localRequest(path);
  if (local === undefined) {
    return (await service.dispatch(toRequest(req, url, body))) ?? notFound(method, path);
  }
  return answerLocal(service, req, local, toRequest(req, url, body), path);
}

/** The server's own parts (see {@link localRequest}), which answer `HEAD` as `GET`. */
async function answerLocal(
  service: MockService,
  req: IncomingMessage,
  local: Exclude<ReturnType<typeof localRequest>, undefined>,
  request: Request,
  path: string,
): Promise<Response> {
  // The API's dispatch answers HEAD itself (and records it as sent); node sends a HEAD answer's head only, with
  // the length the GET's body has.
  const read = request.method === 'HEAD' ? new Request(request, { method: 'GET' }) : request;
  if (local === 'health') return health(read.method, path);
  if (local === 'helpers') {
    return guardLocal(read, localContext(req)) ?? protect(await serveHelper(service, read, path));
  }
  if (local === 'inspector') {
    return guardLocal(read, localContext(req)) ?? protect(serveInspector(service, read));
  }
  if (local === 'pages') {
    return guardLocal(read, localContext(req)) ?? protect(await servePage(service, read, path));
  }
  return read.method === 'GET'
    ? serveOpenApi(service.baseUrl, path)
    : methodNotAllowed(request.method, path, OPENAPI_METHODS);
}

/**
 * Where a container's health check or a test harness's wait asks whether the server serves: it answers 200 once
 * the service is up (503 before, and while a replay runs) and touches no state, journal or recording.
 */
export const HEALTH_PATH = `${HELPERS_PREFIX}/health`;

function health(method: string, path: string): Response {
  return method === 'GET'
    ? Response.json({ success: true, data: { status: 'serving' } })
    : methodNotAllowed(method, path, OPENAPI_METHODS);
}

/** Which of the server's own parts serves `path`; `undefined` for the service's dispatch (the API). */
function localRequest(path: string): 'health' | 'helpers' | 'inspector' | 'pages' | 'openapi' | undefined {
  if (path === HEALTH_PATH) return 'health';
  if (path === HELPERS_PREFIX || path.startsWith(`${HELPERS_PREFIX}/`)) return 'helpers';
  if (path === INSPECTOR_PATH) return 'inspector';
  if (path.startsWith(`${PAGES_PREFIX}/`)) return 'pages';
  if (path === OPENAPI_PATH || path === MOCK_OPENAPI_PATH) return 'openapi';
  return undefined;
}

async function handle(
  service: MockService & ServiceInternals,
  req: IncomingMessage,
  res: ServerResponse,
  stateFile: StateFile | undefined,
): Promise<void> {
  const mark = stateFile?.mark();
  let answer: Response;
  try {
    answer = await answerRequest(service, req);
  } catch (error) {
    // Anything a handler throws is this request's 500; the server keeps serving the rest.
    const detail = describeError(error);
    answer = errorResponse(
      500,
      'Internal Server Error',
      `The mock failed while handling this request: ${detail}`,
      'INTERNAL_ERROR',
    );
  }
  const written = writeAnswer(
    res,
    stateFile ? keepBeforeAnswering(answer, () => stateFile.save(mark)) : answer,
  );
  if (written) await written;
}

/** The answer to every request while a bundle of `steps` steps is replayed: 503, to try again in a second. */
export function replayingAnswer(steps: number): Response {
  const response = errorResponse(
    503,
    'Service Unavailable',
    `The mock is replaying a bundle of ${steps} steps and answers nothing (API, helpers, pages) until it has run the last one: try again in a moment`,
    'REPLAY_IN_PROGRESS',
  );
  response.headers.set('retry-after', '1');
  return response;
}

/** Runs `keep` (saving the state); an answer that cannot be kept becomes a 500 that says so. */
function keepBeforeAnswering(answer: Response, keep: () => void): Response {
  try {
    keep();
    return answer;
  } catch (error) {
    const detail = describeError(error);
    console.error('inr-payouts mock: could not save the state:', error);
    return errorResponse(
      500,
      'Internal Server Error',
      `The mock could not save the state: ${detail}`,
      'INTERNAL_ERROR',
    );
  }
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts a server and its service. */
export async function startMockServer(options: MockServerOptions = {}): Promise<RunningMockServer> {
  const host = options.host ?? '127.0.0.1';
  let service: (MockService & ServiceInternals) | undefined;
  /** The steps of the bundle being replayed; undefined once it has run its last step. */
  let replaying: number | undefined;
  const server = createServer((req, res) => {
    if (!service) {
      res.writeHead(503).end();
      return;
    }
    if (replaying !== undefined) {
      req.resume();
      writeAnswer(res, replayingAnswer(replaying))?.catch(() => res.socket?.destroy());
      return;
    }
    const after = () => options.onRequest?.();
    handle(service, req, res, options.stateFile).then(after, () => {
      res.socket?.destroy();
      after();
    });
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
  const created = mockServiceWithInternals({ webhookWaitMs: 0, ...options.service, baseUrl: url });
  // Synchronously after listen resolved: no request is served before the state file's state is adopted.
  options.stateFile?.keep(created);
  const replay = options.service?.replay;
  if (replay) {
    // Nothing is served before the replay has run its last step: a request let in would take the place (an ID,
    // a key) of the recording's own and change the run. The port is open, so a caller learns why it waits.
    replaying = replay.steps.length;
    const lift = () => {
      replaying = undefined;
    };
    created.replayed.then(lift, lift);
  }
  service = created;
  return {
    url,
    service: created,
    server,
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
