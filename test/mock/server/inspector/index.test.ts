/**
 * The inspector page's rendering, without a browser: what partners sent shows as text (never as markup or
 * script), "copy as curl" quotes for the shell, the filters and the state machine read the state, and the page
 * sits behind the same local-only guard and framing protections as the other pages.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalRequest } from '../../../../mock/engine/journal.js';
import { MACHINE_GRAPHS, type MachineGraph } from '../../../../mock/machines/graphs.js';
import { PROTECTIVE_HEADERS } from '../../../../mock/server/guard.js';
import { curlOf, shellQuote } from '../../../../mock/server/inspector/curl.js';
import { INSPECTOR_PATH, inspectorPolicy, serveInspector } from '../../../../mock/server/inspector/index.js';
import { drawMachine, nextStates } from '../../../../mock/server/inspector/machine.js';
import { INSPECTOR_SHOWN, inspectorModel, readQuery } from '../../../../mock/server/inspector/model.js';
import { type RunningMockServer, startMockServer } from '../../../../mock/server/server.js';
import { createMockService, type MockService } from '../../../../mock/service.js';
import { rawRequest } from '../support.js';

const HOSTILE = `</pre><script>alert("x")</script><img src=x onerror=alert(1)>'"&`;

function graph(id: string): MachineGraph {
  const found = MACHINE_GRAPHS.find((g) => g.id === id);
  if (!found) throw new Error(`no graph ${id}`);
  return found;
}

async function call(mock: MockService, method: string, path: string, body?: unknown) {
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

async function page(mock: MockService, search = '') {
  const response = serveInspector(mock, new Request(`${mock.baseUrl}${INSPECTOR_PATH}${search}`));
  return { response, html: await response.text() };
}

describe('what partners sent is shown as text', () => {
  it('escapes request bodies, answers, names and IDs: the only script is the page’s own', async () => {
    const mock = createMockService({ seed: 'inspector-xss' });
    const created = await call(mock, 'POST', '/v2/users', {
      mobile: '9876543210',
      name: HOSTILE,
      email: 'asha@example.com',
    });
    expect(created.status).toBe(201);
    const userId: string = created.body.data.userId;
    await call(mock, 'GET', `/v2/users/${encodeURIComponent(HOSTILE)}/kyc/status`);
    const { response, html } = await page(mock, `?userId=${userId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain(HOSTILE);
    // The name is there, as text: in the request body, the answer and the user filter.
    expect(html).toContain('&#60;/pre&#62;&#60;script&#62;alert(');
    expect(html).toContain(`value="${userId}" selected`);
  });

  it('escapes a hostile filter value and a hostile path in the timeline', async () => {
    const mock = createMockService({ seed: 'inspector-xss' });
    await call(mock, 'GET', `/v2/transactions/${encodeURIComponent('"><b>x</b>')}`);
    const { html } = await page(mock, `?userId=${encodeURIComponent(HOSTILE)}&type=request`);
    expect(html).not.toContain('<b>x</b>');
    expect(html.match(/<script/g)).toHaveLength(1);
    const all = await page(mock);
    expect(all.html).toContain('GET /v2/transactions/%22%3E%3Cb%3Ex%3C%2Fb%3E');
    // The decoded ID is in the explanation, the answer and the filter link: as text every time.
    expect(all.html).not.toContain('<b>x</b>');
    expect(all.html).toContain('&#34;&#62;&#60;b&#62;x&#60;/b&#62; on this account');
    expect(all.html).toContain('transactionId=%22%3E%3Cb%3Ex%3C%2Fb%3E');
  });

  it('allows only its own style and script, by a nonce that changes on every load', async () => {
    const mock = createMockService({ seed: 'inspector-csp' });
    const first = await page(mock);
    const second = await page(mock);
    const policy = first.response.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? '';
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    expect(policy).toBe(inspectorPolicy(nonce));
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(first.html).toContain(`<style nonce="${nonce}">`);
    expect(first.html).toContain(`<script nonce="${nonce}">`);
    expect(second.response.headers.get('content-security-policy')).not.toBe(policy);
  });
});

describe('copy as curl', () => {
  const entry: JournalRequest = {
    type: 'request',
    seq: 1,
    at: '2025-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/v2/transactions',
    route: '/v2/transactions',
    status: 201,
    idempotencyKey: "key-'1'",
    requestBody: JSON.stringify({ partnerReference: `it's $HOME \`id\` ${HOSTILE}` }),
  };

  it('writes the method, URL, key variable, headers and body, quoted for the shell', () => {
    expect(curlOf(entry, 'http://127.0.0.1:4010/')).toBe(
      [
        "curl -X POST 'http://127.0.0.1:4010/v2/transactions'",
        '-H "Authorization: Bearer $INR_PAYOUTS_API_KEY"',
        "-H 'Content-Type: application/json'",
        `-H 'Idempotency-Key: key-'\\''1'\\'''`,
        `--data-raw ${shellQuote(entry.requestBody ?? '')}`,
      ].join(' \\\n  '),
    );
    expect(
      curlOf(
        {
          ...entry,
          method: 'GET',
          path: '/v2/webhooks',
          query: '?limit=2',
          requestBody: undefined,
          idempotencyKey: undefined,
        },
        'http://127.0.0.1:4010',
      ),
    ).toBe(
      `curl 'http://127.0.0.1:4010/v2/webhooks?limit=2' \\\n  -H "Authorization: Bearer $INR_PAYOUTS_API_KEY"`,
    );
  });

  it('a shell reads every quoted value back exactly, quotes, dollars and backticks included', async () => {
    const run = promisify(execFile);
    for (const text of [entry.requestBody ?? '', "'", "''", 'a\nb', '$(echo no)', '\\']) {
      const { stdout } = await run('sh', ['-c', `printf %s ${shellQuote(text)}`]);
      expect(stdout).toBe(text);
    }
  });
});

describe('the filters and the model', () => {
  it('reads the filters from the query; unknown or empty values filter nothing', () => {
    expect(readQuery(new URLSearchParams('userId=usr_1&transactionId=&type=nope&limit=-3'))).toEqual({
      userId: 'usr_1',
      transactionId: undefined,
      type: undefined,
      limit: INSPECTOR_SHOWN,
    });
    expect(readQuery(new URLSearchParams('type=webhook&limit=20'))).toMatchObject({
      type: 'webhook',
      limit: 20,
    });
  });

  it('a user’s filter finds requests that name the user only in their body or answer, and no one else’s', async () => {
    const mock = createMockService({ seed: 'inspector-model' });
    const asha = (await call(mock, 'POST', '/v2/users', { mobile: '9876543210', name: 'Asha' })).body.data
      .userId;
    const ravi = (await call(mock, 'POST', '/v2/users', { mobile: '9876543211', name: 'Ravi' })).body.data
      .userId;
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543212', name: 'Meera' });
    const created = await call(mock, 'POST', '/v2/transactions', {
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
    });
    const transactionId: string = created.body.data.transactionId;
    const model = inspectorModel(mock, readQuery(new URLSearchParams(`userId=${asha}`)));
    expect(model.entries.map((item) => item.entry.type === 'request' && item.entry.status)).toEqual([201]);
    expect(model.entries[0]).toMatchObject({ userId: asha });
    expect(JSON.stringify(model.entries)).not.toContain(ravi);

    const byTransaction = inspectorModel(
      mock,
      readQuery(new URLSearchParams(`transactionId=${transactionId}`)),
    );
    // The create names its transaction only in its answer; the user is the transaction's.
    expect(byTransaction.entries.find((item) => item.entry.type === 'request')).toMatchObject({
      userId,
      transactionId,
    });
    expect(byTransaction.focus).toMatchObject([{ kind: 'transaction', id: transactionId, state: 'created' }]);
    expect(byTransaction.timers.length).toBeGreaterThan(0);
    expect(byTransaction.timers.every((t) => t.ids.transactionId === transactionId)).toBe(true);
    // Reading the page adds nothing to the journal.
    const size = mock.journal.size;
    await page(mock);
    expect(mock.journal.size).toBe(size);
  });

  it('files a read by partnerReference under its transaction, and the timeline runs oldest first with no step back', async () => {
    const mock = createMockService({ seed: 'inspector-reference' });
    mock.helpers.accounts.update({ webhookUrl: 'https://partner.test/hooks' });
    let answer: () => void = () => {};
    // The first delivery is answered only after later requests: its entry is journalled late, dated at its send.
    mock.helpers.webhooks.useFetch(
      () => new Promise<Response>((resolve) => (answer = () => resolve(new Response('ok')))),
    );
    const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543212', name: 'Meera' });
    const created = await call(mock, 'POST', '/v2/transactions', {
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
      partnerReference: 'order-7',
    });
    const transactionId: string = created.body.data.transactionId;
    await mock.clock.runDue({ wait: false }); // transaction.created goes out; its answer waits
    await mock.clock.advance('1s', { wait: false });
    expect((await call(mock, 'GET', '/v2/transactions/order-7')).status).toBe(200);
    answer();
    await mock.helpers.webhooks.settle();

    const model = inspectorModel(mock, readQuery(new URLSearchParams(`transactionId=${transactionId}`)));
    const reads = model.entries.filter(
      (item) => item.entry.type === 'request' && item.entry.path === '/v2/transactions/order-7',
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ transactionId, userId });
    const times = inspectorModel(mock, readQuery(new URLSearchParams(''))).entries.map(
      (item) => item.entry.at,
    );
    expect(times).toEqual([...times].sort());
    // The journal itself keeps the order things were recorded in: the late attempt comes after the read.
    const journal = mock.journal.entries();
    const attempt = journal.findIndex((e) => e.type === 'webhook');
    const read = journal.findIndex((e) => e.type === 'request' && e.path === '/v2/transactions/order-7');
    expect(attempt).toBeGreaterThan(read);
  });
});

describe('pending timers', () => {
  it('lists each waiting timer with how long until it runs on the virtual clock', async () => {
    const mock = createMockService({ seed: 'inspector-timers' });
    const response = await mock.dispatch(
      new Request(`${mock.baseUrl}/v2/users`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${mock.sandboxKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'key-1',
        },
        body: JSON.stringify({ mobile: '9876543210' }),
      }),
    );
    expect(response?.status).toBe(201);
    const kinds = mock.state.timers.map((t) => t.kind);
    expect(kinds).toContain('idempotency.expire');
    const { html } = await page(mock);
    const timers = html.slice(html.indexOf('<section id="timers"'), html.indexOf('<section id="webhooks"'));
    expect(timers).toContain(`Pending timers (${kinds.length})`);
    // Kept keys expire after 24 hours.
    expect(timers).toMatch(/in 24 h 0 min<\/span><\/td><td class="mono">idempotency\.expire</);
    await mock.clock.advance('23h');
    expect((await page(mock)).html).toContain('in 60 min');
  });
});

describe('the state machine drawing', () => {
  it('marks the current state and the states it can go to next, from the machine’s table', () => {
    const standard = graph('transaction-standard');
    expect(nextStates(standard, 'created')).toEqual([
      { to: 'deposit_pending', events: ['deposit seen on chain'] },
      { to: 'cancelled', events: ['quote expires unpaid'] },
    ]);
    expect(nextStates(standard, 'completed')).toEqual([]);
    const svg = drawMachine(standard, 'created');
    expect(svg.match(/class="state current[^"]*" data-state="([^"]+)"/)?.[1]).toBe('created');
    expect([...svg.matchAll(/class="state next[^"]*" data-state="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'deposit_pending',
      'cancelled',
    ]);
    expect(svg.match(/next-edge/g)).toHaveLength(2);
    // Every state of the machine is drawn, once.
    for (const state of standard.states) expect(svg.split(`data-state="${state}"`)).toHaveLength(2);
  });

  it('draws every machine of MACHINE_GRAPHS inside its view box', () => {
    for (const machine of MACHINE_GRAPHS) {
      const svg = drawMachine(machine, machine.start[0] ?? '');
      const [, width = 0, height = 0] = (/viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg) ?? []).map(Number);
      for (const rect of svg.matchAll(
        /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g,
      )) {
        const [x, y, w, h] = rect.slice(1).map(Number) as [number, number, number, number];
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x + w, machine.id).toBeLessThanOrEqual(width);
        expect(y + h, machine.id).toBeLessThanOrEqual(height);
      }
    }
  });
});

describe('served by the standalone server, local only', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, service: { seed: 'inspector-local' } });
  });
  afterAll(async () => {
    await server.close();
  });

  const raw = (path: string, headers: Record<string, string>, method = 'GET') =>
    rawRequest(server.url, method, path, headers);

  it('answers a local GET with the pages’ protections, its own policy keeping frame-ancestors none', async () => {
    const response = await fetch(`${server.url}${INSPECTOR_PATH}`);
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(PROTECTIVE_HEADERS)) {
      if (name === 'content-security-policy') continue;
      expect(response.headers.get(name), name).toBe(value);
    }
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await response.text()).toContain('<h2 id="timeline-title">Timeline</h2>');
  });

  it('refuses another site, a rebound host name and a method that is not a read', async () => {
    const host = new URL(server.url).host;
    const refused: Record<string, string>[] = [
      { Host: host, 'Sec-Fetch-Site': 'cross-site' },
      { Host: host, Origin: 'https://evil.example' },
      { Host: `evil.example:${new URL(server.url).port}` },
    ];
    for (const headers of refused) {
      const answer = await raw(INSPECTOR_PATH, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.text).not.toContain('Timeline');
    }
    const posted = await raw(INSPECTOR_PATH, { Host: host }, 'POST');
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
  });
});
