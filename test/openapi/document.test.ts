/**
 * The shipped OpenAPI document: up to date with the schemas and routes, valid OpenAPI 3.1, and complete.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { modules } from '../../mock/handlers/index.js';
import { generateOpenApi } from '../../mock/openapi/generate.js';
import { startMockServer } from '../../mock/server/server.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
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
    } finally {
      await running.close();
    }
  });
});
