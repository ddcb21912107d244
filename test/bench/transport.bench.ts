// Targets: the client's per-request cost at most 1.3x a raw `fetch` of the same loopback URL for a GET and 1.4x
// for a POST, same run, contenders interleaved. The client goes through everything a partner's call does: the
// real PayoutClient, headers, an idempotency key on the POST, the retry loop, the envelope and zod validation of
// the account. ky is shown beside them for reference: bare, and with its retries and time-out off (the least ky
// does per request: it still builds a Request and an AbortController), against the client's whole budget.
// Run: npm run bench -- test/bench/transport.bench.ts
import { Account, PayoutClient } from 'inr-payouts';
import ky from 'ky';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { startLoopback } from './loopback.js';
import { measureInterleaved, printRatios } from './ratio.js';
import { TARGETS } from './targets.js';

let loop: Awaited<ReturnType<typeof startLoopback>>;
let client: PayoutClient;
let url = '';
const quietKy = ky.create({ retry: 0, timeout: false });
const headers = { Authorization: 'Bearer pk_sandbox_bench' };
const body = { webhookUrl: 'https://acme.test/webhooks', developerFeePercent: 1.5 };
const postHeaders = { ...headers, 'Content-Type': 'application/json' };

const contenders = {
  fetch: async () => (await fetch(url, { headers })).json(),
  // The same work a keyed POST needs on the wire: a fresh UUID and a JSON body.
  fetchPost: async () =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { ...postHeaders, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify(body),
      })
    ).json(),
  ky: () => ky.get(url, { headers }).json(),
  kyQuiet: () => quietKy.get(url, { headers }).json(),
  client: () => client.account.retrieve(),
  clientPost: () => client.request({ method: 'POST', path: '/v2/account', body, dataSchema: Account }),
};

beforeAll(async () => {
  loop = await startLoopback();
  url = `${loop.url}/v2/account`;
  client = new PayoutClient({ apiKey: 'pk_sandbox_bench', baseUrl: loop.url });
});
afterAll(async () => {
  // Warm every contender's connections and code paths before measuring.
  await measureInterleaved(contenders, { rounds: 4, batch: 50 });
  const micros = await measureInterleaved(contenders, { rounds: 100, batch: 30 });
  printRatios('client per-request cost (loopback /v2/account)', micros, [
    { target: TARGETS.clientGet, subject: 'client', baseline: 'fetch' },
    { target: TARGETS.clientPost, subject: 'clientPost', baseline: 'fetchPost' },
    { label: 'client GET vs bare ky.get().json()', subject: 'client', baseline: 'ky', kind: 'cost', bar: 1 },
    {
      label: 'ky alone (retries and time-out off) vs raw fetch GET, against the client GET budget',
      subject: 'kyQuiet',
      baseline: 'fetch',
      kind: 'cost',
      bar: TARGETS.clientGet.bar,
    },
  ]);
  await loop.close();
}, 300_000);

describe('per-request cost on loopback', () => {
  bench('raw fetch GET', async () => {
    await contenders.fetch();
  });
  bench('raw fetch POST', async () => {
    await contenders.fetchPost();
  });
  bench('bare ky.get().json()', async () => {
    await contenders.ky();
  });
  bench('ky, retries and time-out off', async () => {
    await contenders.kyQuiet();
  });
  bench('PayoutClient account.retrieve()', async () => {
    await contenders.client();
  });
  bench('PayoutClient POST (client.request)', async () => {
    await contenders.clientPost();
  });
});
