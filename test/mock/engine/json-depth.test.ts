import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../mock/engine/json-depth.js';
import { mockServerForTests, postText } from '../server/support.js';

/**
 * The standalone server answers JSON nested past the mock's depth limit with a 400 the client can read, that
 * says so (never a 500 "Maximum call stack size exceeded"). The body size limit: test/mock/server/body-limit.test.ts.
 */

const server = mockServerForTests({ port: 0, service: { seed: 'bad-input' } });

const post = (path: string, text: string, key?: string) => postText(server, path, text, key);

describe('JSON nested past the depth limit', () => {
  const arrays = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
  const objects = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
  const said = new RegExp(`nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);

  it('an array 50,000 deep or an object 20,000 deep, with or without an idempotency key: 400 saying so', async () => {
    const users = Object.keys(server.service.state.users.byId).length;
    const cases = [
      [`{"mobile":"9876543210","name":${arrays}}`, crypto.randomUUID()],
      [`{"name":${objects}}`, undefined],
      [arrays, crypto.randomUUID()],
    ] as const;
    for (const [text, key] of cases) {
      const answer = await post('/v2/users', text, key);
      expect(answer.status, String(answer.body.message)).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
      expect(String(answer.body.message)).toMatch(said);
      expect(JSON.stringify(answer.body)).not.toContain('call stack');
    }
    const transaction = await post('/v2/transactions', arrays, crypto.randomUUID());
    expect(transaction.status).toBe(400);
    expect(Object.keys(server.service.state.users.byId)).toHaveLength(users);
  });

  it('a helper body nested as deep: 400 saying so', async () => {
    const response = await fetch(`${server.url}/__mock/restore`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: arrays,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(said);
  });

  it('depth within the limit is read as usual; brackets inside strings do not count', async () => {
    const nested = `${'['.repeat(MAX_JSON_DEPTH - 1)}1${']'.repeat(MAX_JSON_DEPTH - 1)}`;
    const within = await post('/v2/users', `{"mobile":"9876500001","name":${nested}}`);
    expect(within.status).toBe(400);
    expect(String(within.body.message)).not.toMatch(said);
    const quoted = await post(
      '/v2/users',
      JSON.stringify({ mobile: '9876500002', name: `"\\${'['.repeat(100)}` }),
    );
    expect(quoted.status).toBe(201);
  });
});
