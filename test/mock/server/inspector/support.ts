/**
 * What the inspector page's tests share: a call through the service's own dispatch (no server, no browser), and
 * the page as the service serves it.
 */
import { INSPECTOR_PATH, serveInspector } from '../../../../mock/server/inspector/index.js';
import type { MockService } from '../../../../mock/service.js';

/** An API call to `mock` with its sandbox key: the status and the JSON body. */
export async function call(mock: MockService, method: string, path: string, body?: unknown) {
  const response = await mock.dispatch(
    new Request(`${mock.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  if (!response) throw new Error(`no route for ${path}`);
  return { status: response.status, body: await response.json() };
}

/** A transaction of 100 USDT on polygon created for `userId`, with `extra` fields in the body: its ID. */
export async function createTransaction(
  mock: MockService,
  userId: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const body = { userId, amount: '100', asset: 'USDT', network: 'polygon', ...extra };
  const created = await call(mock, 'POST', '/v2/transactions', body);
  if (created.status !== 201) throw new Error(`transaction create failed: ${JSON.stringify(created.body)}`);
  return created.body.data.transactionId;
}

/** The inspector page with the query `search`: the response and its HTML. */
export async function page(mock: MockService, search = '') {
  const response = serveInspector(mock, new Request(`${mock.baseUrl}${INSPECTOR_PATH}${search}`));
  return { response, html: await response.text() };
}
