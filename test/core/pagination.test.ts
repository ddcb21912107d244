import { describe, expect, it } from 'vitest';
import { Page } from '../../src/index.js';
import { webhookEvent } from '../support/fixtures.js';
import { makeClient, ok, route, useServer } from '../support/msw.js';

// The conventions partner engineers bring from stripe-node and openai-node (docs/coming-from-stripe-or-openai.md).

useServer();

describe('list methods return page promises that are async iterables', () => {
  const all = Array.from({ length: 5 }, (_, i) => webhookEvent(`evt_${i + 1}`));
  const paged = () =>
    route('get', '/v2/webhooks', (request) => {
      const page = Number(request.query.page ?? 1);
      return ok(all.slice((page - 1) * 2, page * 2), {
        pagination: { page, limit: 2, total: all.length, totalPages: 3 },
      });
    });

  it('awaits to a Page with data, pagination, hasNextPage() and getNextPage()', async () => {
    paged();
    const first = await makeClient().webhooks.list({ limit: 2 });
    expect(first).toBeInstanceOf(Page);
    expect(first.data.map((e) => e.id)).toEqual(['evt_1', 'evt_2']);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect(first.hasNextPage()).toBe(true);
    const third = await (await first.getNextPage()).getNextPage();
    expect(third.data.map((e) => e.id)).toEqual(['evt_5']);
    expect(third.hasNextPage()).toBe(false);
  });

  it('iterates every item of every page with for await, and stops when the caller breaks', async () => {
    const seen = paged();
    const ids: string[] = [];
    for await (const event of makeClient().webhooks.list({ limit: 2 })) ids.push(event.id);
    expect(ids).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4', 'evt_5']);
    expect(seen).toHaveLength(3);
    for await (const event of makeClient().webhooks.list({ limit: 2 })) if (event.id === 'evt_1') break;
    expect(seen).toHaveLength(4);
  });
});
