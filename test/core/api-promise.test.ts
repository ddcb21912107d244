import { describe, expect, it } from 'vitest';
import { account } from '../support/fixtures.js';
import { makeClient, ok, route, useServer } from '../support/msw.js';

// The conventions partner engineers bring from stripe-node and openai-node (docs/coming-from-stripe-or-openai.md).

useServer();

describe('raw responses', () => {
  it('withResponse() gives the fetch Response with the client facts; asResponse() a readable copy', async () => {
    route('get', '/v2/account', ok(account));
    const client = makeClient();
    const { data, response } = await client.account.retrieve().withResponse();
    expect(response).toBeInstanceOf(Response);
    expect(data.id).toBe(account.id);
    expect(response).toMatchObject({ status: 200, attempts: 1, idempotentReplayed: false });
    const raw = await client.account.retrieve().asResponse();
    expect(raw).toBeInstanceOf(Response);
    expect(raw.attempts).toBe(1);
    expect(raw.headers.get('content-type')).toMatch(/json/);
    expect(await raw.json()).toEqual({ success: true, data: account });
  });
});
