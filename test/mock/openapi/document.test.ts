/**
 * The shipped OpenAPI document: up to date with the schemas and routes, valid OpenAPI 3.1, and complete.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { route } from '../../../mock/engine/route.js';
import { openApiDocument, parseAssumptions } from '../../../mock/openapi/document.js';
import { generateMockOpenApi, generateOpenApi } from '../../../mock/openapi/generate.js';
import { modules } from '../../../mock/routes/index.js';
import { startMockServer } from '../../../mock/server/server.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/webhooks/events.js';

const committed = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8');
const committedMock = readFileSync(new URL('../../../openapi.mock.json', import.meta.url), 'utf8');
const doc = JSON.parse(committed) as {
  paths: Record<
    string,
    Record<string, { operationId: string; 'x-error-identifiers'?: string[] } & Record<string, unknown>>
  >;
  webhooks: Record<string, unknown>;
  components: { securitySchemes: Record<string, unknown> };
};

describe('openapi.json', () => {
  it('is what the generator makes of the current schemas and routes (npm run openapi updates it)', () => {
    expect(committed).toBe(generateOpenApi());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(committed));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse a broken document, so the pass above means something.
    const broken = JSON.parse(committed);
    broken.paths['/v2/users'].post.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every /v2 route, with its body, parameters and both error shapes', () => {
    for (const route of modules.flatMap((m) => m.routes).filter((r) => r.path.startsWith('/v2/'))) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(Boolean(op?.requestBody)).toBe(Boolean(route.bodySchema));
    }
    const create = doc.paths['/v2/transactions']?.post;
    expect(create?.operationId).toBe('transactions.create');
    expect(create?.['x-error-identifiers']).toContain('AMOUNT_TOO_LOW');
    expect(JSON.stringify(create?.responses)).toContain('#/components/schemas/ErrorA');
    expect(JSON.stringify(doc.paths['/v2/users/{userId}/kyc/bank/verify']?.post?.responses)).toContain(
      '#/components/schemas/ErrorB',
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('refuses a row without a route, a /v2 route without a row, and a row served twice', () => {
    const routes = modules.flatMap((m) => m.routes);
    const decisions = parseAssumptions(
      readFileSync(new URL('../../../docs/assumptions.md', import.meta.url), 'utf8'),
    );
    const build = (list: typeof routes) => () => openApiDocument(decisions, '0.0.0', list);
    expect(build(routes.filter((r) => r.operationId !== 'kyc.refresh'))).toThrow(
      'No route serves the rows kyc.refresh of src/endpoints/',
    );
    const stray = route({ method: 'GET', path: '/v2/stray/{id}', data: z.unknown() }, () => ({ data: null }));
    expect(build([...routes, stray])).toThrow('The route GET /v2/stray/:id has no row in src/endpoints/');
    expect(build([...routes, ...routes.slice(0, 1)])).toThrow('Two routes serve the row users.create');
  });

  it('describes each 400 in the shape its route answers it', () => {
    const describe400 = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.responses as Record<string, { description: string }> | undefined)?.['400']
        ?.description;
    expect(describe400('/v2/users/{userId}/kyc/declaration', 'post')).toMatch(
      /shape B, `error: Validation Error`/,
    );
    expect(describe400('/v2/transactions', 'post')).toMatch(/shape A, `code: VALIDATION_ERROR`/);
  });

  it('carries the rules the schemas write as refinements', () => {
    const body = (path: string, method = 'post') =>
      JSON.stringify(
        (doc.paths[path]?.[method] as { requestBody?: { content: Record<string, unknown> } } | undefined)
          ?.requestBody?.content,
      );
    expect(body('/v2/account/developer-fee', 'put')).toContain('"maximum":0.05');
    expect(body('/v2/transactions')).toContain('"maxLength":255');
    expect(body('/v2/transactions')).toContain('"x-decimal-minimum":"10"');
    expect(body('/v2/users/{userId}/kyc/declaration')).toContain('"maxLength":500');
  });

  it('describes the ten webhook payloads with the signature header, and marks assumptions', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(JSON.stringify(doc.webhooks['transaction.payout_completed'])).toContain('x-service-signature');
    const users = doc.paths['/v2/users']?.post as { 'x-assumption'?: { topic: string; decision: string }[] };
    expect(users['x-assumption']?.[0]).toMatchObject({ topic: 'Create a user' });
    expect(users['x-assumption']?.[0]?.decision).toContain('USER_EXISTS');
  });
});

describe('what the API document declares beyond the bodies', () => {
  type Responses = Record<string, { headers?: Record<string, unknown>; 'x-mock-only'?: boolean }>;
  const responses = (path: string, method: string) => doc.paths[path]?.[method]?.responses as Responses;

  it('holds no test helper, so a contract tool aimed at it never resets a sandbox', () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/__mock'))).toEqual([]);
  });

  it('declares the rate-limit headers on every answer, Idempotent-Replayed on a replay, and fault statuses', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (path.startsWith('/__uploads')) continue;
        for (const [status, response] of Object.entries(op.responses as Responses)) {
          expect(Object.keys(response.headers ?? {}), `${method} ${path} ${status}`).toContain(
            'X-RateLimit-Limit',
          );
          expect(Object.keys(response.headers ?? {})).toContain('X-Mock-Explain');
        }
      }
    }
    const create = responses('/v2/transactions', 'post');
    expect(Object.keys(create['200']?.headers ?? {})).toContain('Idempotent-Replayed');
    expect(create['502']?.['x-mock-only']).toBe(true);
    expect(create['5XX']?.['x-mock-only']).toBe(true);
    expect(create['413']).toBeDefined();
  });

  it('has the presigned upload PUT the document flow needs, marked mock-only', () => {
    const upload = doc.paths['/__uploads/{s3Key}']?.put;
    expect(upload?.['x-mock-only']).toBe(true);
    expect(Object.keys(upload?.responses as object)).toEqual(
      expect.arrayContaining(['200', '403', '404', '405', '409']),
    );
  });

  it('publishes every status field as an open enum, and marks the mock-only fields', () => {
    const retrieve = JSON.stringify(doc.paths['/v2/transactions/{transactionId}']?.get?.responses);
    expect(retrieve).toContain('"enum":["created"');
    expect(retrieve).toContain('"enum":["pending","processing","completed","failed"]');
    // Every schema node named `name` anywhere under `node`, whatever nests it (anyOf, properties).
    const named = (node: unknown, name: string): Record<string, unknown>[] => {
      if (typeof node !== 'object' || node === null) return [];
      return Object.entries(node).flatMap(([key, value]) => [
        ...(key === 'properties' && typeof value === 'object' && value !== null && name in value
          ? [(value as Record<string, Record<string, unknown>>)[name] ?? {}]
          : []),
        ...named(value, name),
      ]);
    };
    const answers = doc.paths['/v2/transactions/{transactionId}']?.get?.responses;
    for (const field of ['attributionStatus', 'updatedAt', 'requiredConfirmations', 'failureCode']) {
      const found = named(answers, field);
      expect(found.length, field).toBeGreaterThan(0);
      expect(
        found.every((f) => f['x-mock-only'] === true),
        field,
      ).toBe(true);
    }
    expect(named(answers, 'utr').every((f) => f['x-mock-only'] === undefined)).toBe(true);
    expect(JSON.stringify(doc.webhooks['transaction.payout_failed'])).toContain('"enum":["created"');
  });
});

describe('openapi.mock.json', () => {
  const mockDoc = JSON.parse(committedMock) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };

  it('is what the generator makes of the helper contract (npm run openapi updates it)', () => {
    expect(committedMock).toBe(generateMockOpenApi());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(JSON.parse(committedMock));
    expect(result.errors ?? []).toEqual([]);
  });

  it('has GET /__mock, every HTTP helper, GET for each reading helper, and object bodies only', () => {
    expect(mockDoc.paths['/__mock']?.get).toBeDefined();
    expect(mockDoc.paths['/__mock/otp/read']?.get?.operationId).toBe('otp.read.query');
    expect(mockDoc.paths['/__mock/reset']?.get).toBeUndefined();
    for (const [path, item] of Object.entries(mockDoc.paths)) {
      const body = (
        item.post?.requestBody as
          | { content: { 'application/json': { schema: { type?: string; anyOf?: { type: string }[] } } } }
          | undefined
      )?.content['application/json'].schema;
      if (!body) continue;
      const types = body.anyOf ? body.anyOf.map((b) => b.type) : [body.type];
      expect(
        types.every((t) => t === 'object'),
        path,
      ).toBe(true);
    }
    expect(JSON.stringify(mockDoc)).not.toContain('"data":{}');
  });
});

describe('GET /openapi.json on the standalone server', () => {
  it('serves the shipped document with its own address as the server', async () => {
    const running = await startMockServer({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${running.url}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      const served = (await response.json()) as {
        openapi: string;
        servers: { url: string }[];
        paths: object;
      };
      expect(served.openapi).toBe('3.1.0');
      expect(served.servers[0]?.url).toBe(running.url);
      expect(served.paths).toEqual(doc.paths);
      const helpers = (await (await fetch(`${running.url}/openapi.mock.json`)).json()) as typeof served;
      expect(helpers.servers[0]?.url).toBe(running.url);
      expect(helpers.paths).toEqual(JSON.parse(committedMock).paths);
    } finally {
      await running.close();
    }
  });
});
