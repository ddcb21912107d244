/**
 * The test helpers over HTTP, `/__mock/...`: a generic mapping onto `service.helpers`, so a helper group
 * added to the mock is served without a change here.
 *
 * - `GET /__mock` lists what exists, with each helper's argument shapes (`described`, from `HELPER_CONTRACT`).
 * - `POST /__mock/<group>/<action>` calls `helpers[group][action](body)`; `POST /__mock/<action>` calls a
 *   top-level helper (`reset`, `seed`, `snapshot`, `restore`). A helper that only reads also answers `GET`,
 *   with the query string as the argument object (or no argument); `GET` never changes state
 *   (`mock/server/guard.ts`).
 * - The JSON body, always an object, is the argument; a helper whose argument is not an object names it
 *   (`{ "duration": "1h" }`, the contract's `field`), and the body's other fields are its second argument.
 *   `{ "args": [...] }` is the arguments in order, the form `connectMock` sends for any helper; any other JSON
 *   value is the one argument.
 * - Answers `{ success: true, data: <result> }`; a refused transition is 409, an unknown thing 404, an
 *   argument the contract refuses 400 `INVALID_HELPER_ARGUMENT` naming the `field`, all in the spec's shape A.
 */
import { toJSONSchema } from 'zod/mini';
import { describeError } from '../../src/shared/describe-error.js';
import { isPlainObject } from '../../src/shared/plain-object.js';
import {
  type HelperSpec,
  helperArgs,
  helperBodySchema,
  helperPath,
  helperSpec,
  httpHelpers,
  servedOverHttp,
} from '../contract/helpers.js';
import { MockArgumentError, MockHelperError, MockTransitionError } from '../engine/errors.js';
import { explainLine } from '../engine/explain.js';
import { nestsDeeperThan, TOO_DEEP } from '../engine/json-depth.js';
import { methodNotAllowed } from '../http/dispatch.js';
import { EXPLAIN_HEADER } from '../http/pipeline.js';
import type { MockService } from '../service.js';
import { helperMethodRefusal, refusal } from './guard.js';
import { StateFileError } from './persistence-lock.js';

/** The path prefix of the helpers. */
export const HELPERS_PREFIX = '/__mock';

/** `holder[name]` when it is the object's own, under a name a helper or a group can have. */
function own(holder: unknown, name: string): unknown {
  return isPlainObject(holder) && /^[A-Za-z][A-Za-z0-9_]*$/.test(name) && Object.hasOwn(holder, name)
    ? holder[name]
    : undefined;
}

/**
 * Every helper the server serves: group name → action names, and the top-level helpers under `''`. An
 * in-process-only helper (`http: false` in the contract) is left out, as its path answers 404.
 */
export function listHelpers(service: MockService): Record<string, string[]> {
  const out: Record<string, string[]> = { '': [] };
  for (const [name, value] of Object.entries(service.helpers)) {
    if (typeof value === 'function') {
      if (servedOverHttp(name)) out['']?.push(name);
    } else if (isPlainObject(value)) {
      out[name] = Object.entries(value)
        .filter(([action, fn]) => typeof fn === 'function' && servedOverHttp(`${name}.${action}`))
        .map(([action]) => action);
    }
  }
  return out;
}

/** One helper as `GET /__mock` describes it: where it answers and the JSON Schema of each argument. */
export interface HelperDescription {
  name: string;
  path: string;
  summary: string;
  /** Whether it also answers `GET` (it only reads). */
  reads: boolean;
  /** The JSON Schema of each in-process argument. */
  arguments: Record<string, unknown>[];
  /** The JSON Schema of the HTTP body (always an object), absent for a helper that takes nothing. */
  body?: Record<string, unknown>;
}

/** The helpers served over HTTP with their argument shapes (JSON Schema 2020-12), from `HELPER_CONTRACT`. */
export function describeHelpers(): HelperDescription[] {
  return httpHelpers().map(([name, spec]) => ({
    name,
    path: helperPath(name),
    summary: spec.summary,
    reads: spec.reads === true,
    arguments: helperArgs(spec).map((schema) =>
      toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    ),
    body: helperBodySchema(spec),
  }));
}

/** The helper's arguments from its HTTP body (or query), which is one JSON object. */
function argumentsOf(request: Request, text: string, spec: HelperSpec | undefined): unknown[] | Response {
  let body: unknown;
  if (request.method === 'GET') {
    const query = Object.fromEntries(new URL(request.url).searchParams);
    if (!Object.keys(query).length) return [];
    body = query;
  } else {
    if (!text.trim()) return [];
    if (nestsDeeperThan(text)) return refusal(400, 'Bad Request', `The helper body is refused: ${TOO_DEEP}`);
    try {
      body = JSON.parse(text);
    } catch {
      return refusal(400, 'Bad Request', 'The helper body is not JSON: send the argument as a JSON object');
    }
  }
  const field = spec?.field;
  if (field && isPlainObject(body) && Object.hasOwn(body, field)) {
    // `{ "duration": "1h" }`: the named field is the first argument, any other fields the second.
    const { [field]: first, ...rest } = body;
    return Object.keys(rest).length ? [first, rest] : [first];
  }
  // `connectMock`'s form: the arguments in order, whatever the helper.
  if (isPlainObject(body) && Object.keys(body).length === 1 && Array.isArray(body.args)) {
    return body.args;
  }
  return [body];
}

/** A path segment decoded; one that is not valid percent-encoding stays as written (and names no helper). */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function errorAnswer(error: unknown, name: string): Response {
  if (error instanceof MockArgumentError) {
    return refusal(400, 'Bad Request', error.message, {
      code: 'INVALID_HELPER_ARGUMENT',
      field: error.field,
    });
  }
  if (error instanceof MockTransitionError) {
    const { state, allowed } = error;
    // The same line an API refusal carries, so a test over HTTP reads why without parsing the body.
    const headers = { [EXPLAIN_HEADER]: explainLine(error.explanation) };
    return refusal(409, 'Conflict', error.message, { code: 'TRANSITION_REFUSED', state, allowed }, headers);
  }
  // Helpers say `No <thing> <id>` for something missing; any other helper error is about the argument.
  if (error instanceof MockHelperError && /^No /.test(error.message)) {
    return refusal(404, 'Not Found', error.message);
  }
  const message = describeError(error);
  return refusal(400, 'Bad Request', `The helper ${name} refused its argument: ${message}`, {
    code: 'HELPER_REJECTED',
  });
}

/** Answers one `/__mock/...` request. */
export async function serveHelper(service: MockService, request: Request, path: string): Promise<Response> {
  const parts = path.slice(HELPERS_PREFIX.length).split('/').filter(Boolean).map(decodePart);
  if (parts.length === 0) {
    if (request.method !== 'GET') return methodNotAllowed(request.method, HELPERS_PREFIX, ['GET', 'HEAD']);
    return Response.json({
      success: true,
      data: { helpers: listHelpers(service), described: describeHelpers() },
    });
  }
  const [first = '', second] = parts;
  const group = second === undefined ? service.helpers : own(service.helpers, first);
  const fn = parts.length <= 2 ? own(group, second ?? first) : undefined;
  const name = parts.join('.');
  const spec = helperSpec(name);
  if (spec?.http === false) {
    return refusal(
      404,
      'Not Found',
      `helpers.${name} takes a function, so it exists in-process only (createMockService().helpers) and is not served over HTTP: ${spec.overHttp ?? `GET ${HELPERS_PREFIX} lists the helpers there are`}`,
      { code: 'IN_PROCESS_ONLY' },
    );
  }
  if (typeof fn !== 'function')
    return refusal(404, 'Not Found', `No helper ${name}: GET ${HELPERS_PREFIX} lists the helpers there are`);
  const text = request.method === 'POST' ? await request.text() : '';
  const refused = helperMethodRefusal(request, name, Buffer.byteLength(text));
  if (refused) return refused;
  const args = argumentsOf(request, text, spec);
  if (args instanceof Response) return args;
  try {
    const result: unknown = await fn.apply(group, args);
    return Response.json({ success: true, data: result ?? null });
  } catch (error) {
    // The state file failing (a damaged entry read) is the mock's failure, answered 500, not the argument's.
    if (error instanceof StateFileError) throw error;
    return errorAnswer(error, name);
  }
}
