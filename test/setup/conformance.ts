/**
 * Every answer the mock's routes give during the test suite (each answered exchange on the stream of every service
 * a test makes: the check subscribes to each as it is created) is checked against `openapi.json`: its status is
 * one the document lists for the operation, a JSON body validates against that response's schema (ajv, JSON
 * Schema 2020-12), and the headers the document requires for it are there. A test whose run got a non-conforming
 * answer fails, so the contract, the client and the mock cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, expect, vi } from 'vitest';
import type { StreamRecord } from '../../mock/engine/stream.js';

// Every service is made by createServiceInternals: each new one's stream gets the check as a subscriber.
vi.mock('../../mock/engine/internals.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../mock/engine/internals.js')>();
  return {
    ...actual,
    createServiceInternals: (...args: Parameters<typeof actual.createServiceInternals>) => {
      const service = actual.createServiceInternals(...args);
      service.stream.subscribe(checkAnswer);
      return service;
    },
  };
});

type Json = Record<string, unknown>;
interface ResponseSpec {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Json }>;
}

const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>;
  components: { schemas: Record<string, Json>; headers?: Record<string, Json> };
};

/** A declared header, its `$ref` to `components.headers` followed. */
function headerSpec(header: unknown): Json {
  const ref = (header as { $ref?: string }).$ref;
  return (ref ? doc.components.headers?.[ref.split('/').pop() ?? ''] : header) as Json;
}
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

// Each response schema compiled on its own, with the components it refers to as its $defs.
const defs = JSON.parse(
  JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
);
const compiled = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: Json): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    const own = JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/'));
    validate = ajv.compile({ ...own, $defs: defs });
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * An answer of an API route as the check reads it: the status the service answered, the headers sent (none when
 * the connection was dropped after the work), and the body's text, the answer's own or read from a copy.
 */
interface Observed {
  method: string;
  routePath: string;
  where: string;
  status: number;
  headers: Headers | undefined;
  text: Promise<string> | string | undefined;
}

function problemsOf({
  method,
  routePath,
  where,
  status: code,
  headers,
  text,
}: Observed): Promise<string[]> | string[] {
  const path = routePath.replace(/:(\w+)/g, '{$1}');
  const operation = doc.paths[path]?.[method.toLowerCase()];
  // The catch-all 404 and routes a test declares for itself are no operation of the service; the generator
  // refuses a real route without an entry, so every operation is in the document.
  if (!operation) return [];
  const status = String(code);
  const spec =
    operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
  if (!spec) return [`${where}: openapi.json lists no ${status} for ${method} ${path}`];
  const problems: string[] = [];
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    if (headerSpec(header).required === true && headers && !headers.has(name))
      problems.push(`${where}: header ${name} is missing`);
  }
  const media = spec.content?.['application/json'];
  if (!media || text === undefined) return problems;
  const type = headers ? headers.get('content-type') : 'application/json';
  if (!(type ?? '').includes('application/json')) {
    return [...problems, `${where}: content-type ${type} is not JSON`];
  }
  const check = (sent: string): string[] => {
    const body: unknown = JSON.parse(sent);
    const validate = validatorFor(`${method} ${path} ${status}`, media.schema);
    if (validate(body)) return problems;
    const errors = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '(body)'} ${e.message}`)
      .join('; ');
    return [
      ...problems,
      `${where}: body does not conform: ${errors}; body ${JSON.stringify(body).slice(0, 300)}`,
    ];
  };
  return typeof text === 'string' ? check(text) : text.then(check);
}

const pending: (Promise<string[]> | string[])[] = [];
function checkAnswer(record: StreamRecord): void {
  if (record.type !== 'answered') return;
  const { exchange } = record;
  const { answer, route } = exchange;
  // An injected fault's answer is the test's own, not the service's.
  if (!answer || !route || answer.fault === 'error' || answer.fault === 'drop') return;
  const { response } = answer;
  // Only an answer that is not JSON text is copied, and only while this check listens.
  const text =
    answer.text ?? (response.body === null || response.bodyUsed ? undefined : response.clone().text());
  const observed = {
    method: route.method,
    routePath: route.path,
    where: `${exchange.method} ${new URL(exchange.url).pathname} → ${answer.status}`,
    status: answer.status,
    headers: response.type === 'error' ? undefined : response.headers,
    text,
  };
  try {
    const problems = problemsOf(observed);
    pending.push(
      Array.isArray(problems)
        ? problems
        : problems.catch((error: unknown) => [`${route.path}: ${String(error)}`]),
    );
  } catch (error) {
    pending.push([`${route.path}: ${String(error)}`]);
  }
}

afterEach(async () => {
  const problems = (await Promise.all(pending.splice(0))).flat();
  expect(problems, 'answers of the mock that do not conform to openapi.json').toEqual([]);
});
