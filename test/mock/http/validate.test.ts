/**
 * The pipeline validates a GET's query with its row's schema (src/endpoints) before the route or an override runs:
 * a field the schema wants as a number is read as one, every other value stays the text sent.
 */
import { describe, expect, it } from 'vitest';
import { createMockService } from '../../../mock/index.js';
import { createUser, mockServer } from '../support.js';

const mock = mockServer();

describe("a GET's query, validated by its row", () => {
  it('4.12: page and limit are read as numbers; a limit that is not one answers 400 naming it', async () => {
    const { call } = mock.use();

    const page = await call('GET', '/v2/webhooks?limit=5&page=2');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ pagination: { page: 2, limit: 5 } });

    const refused = await call('GET', '/v2/webhooks?limit=five');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'limit' }] });
  });

  it('4.4: a clientId of digits stays the text sent (an unknown session, 404), and no clientId answers 400', async () => {
    const { call } = mock.use();
    const userId = await createUser(call);

    const unknown = await call('GET', `/v2/users/${userId}/kyc/digilocker/status?clientId=12345`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(String(unknown.body.message)).toContain('12345');

    const missing = await call('GET', `/v2/users/${userId}/kyc/digilocker/status`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'clientId' }] });
  });

  it("an override reads the query as the row's schema typed it", async () => {
    const service = createMockService();
    const seen: unknown[] = [];
    service.override('account.listActivity', ({ query }) => {
      seen.push(query.limit);
      return { data: [] };
    });
    const answer = await service.fetch(`${service.baseUrl}/v2/account/activity?limit=7`, {
      headers: { authorization: `Bearer ${service.sandboxKey}` },
    });

    expect(answer.status).toBe(200);
    expect(seen).toEqual([7]);
  });
});
