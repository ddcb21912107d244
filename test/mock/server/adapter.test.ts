/**
 * What the server hands the service and what it sends back, over real connections: a binary body byte for byte,
 * request headers read as fetch's `Headers` reads them (repeated ones joined), repeated `set-cookie`
 * kept apart, a JSON answer's length in bytes, the client-IP header from the socket only, a GET without a body
 * whatever came with it, and a request its client abandons mid-body.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

let server: RunningMockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, service: { seed: 'adapter' } });
});
afterAll(() => server.close());

/** Sends `head` (the request line and headers, CRLF-separated) and `body` on a new connection; its whole answer. */
function rawExchange(head: string[], body = ''): Promise<{ status: number; head: string; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.end(`${[...head, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const end = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(text.slice(9, 12)),
        head: text.slice(0, end),
        body: Buffer.from(text.slice(end + 4), 'latin1').toString(),
      });
    });
  });
}

const auth = () => ({ Authorization: `Bearer ${server.service.sandboxKey}` });

describe('the request the service is handed', () => {
  it('reads its headers as fetch Headers: lower case, repeated ones joined, in name order', async () => {
    const sent: [string, string][] = [
      ['Authorization', `Bearer ${server.service.sandboxKey}`],
      ['X-Multi', 'one'],
      ['x-multi', ' two '],
      ['Cookie', 'a=1'],
      ['cookie', 'b=2'],
      ['Set-Cookie', 's=1'],
      ['set-cookie', 't=2'],
      ['Accept', 'application/json'],
    ];
    let seen: [string, string][] = [];
    const stop = server.service.override('account.retrieve', ({ request }) => {
      seen = [...request.headers].filter(
        ([name]) => !['host', 'connection', 'x-mock-client-ip'].includes(name),
      );
      return undefined;
    });
    try {
      const answer = await rawExchange([
        'GET /v2/account HTTP/1.1',
        `Host: ${new URL(server.url).host}`,
        ...sent.map(([name, value]) => `${name}: ${value}`),
      ]);
      expect(answer.status).toBe(200);
    } finally {
      stop();
    }
    expect(seen).toEqual([...new Headers(sent)]);
  });

  it('a binary body arrives byte for byte', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    await fetch(`${server.url}/v2/users`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    // The recording keeps what the service read: bytes that are not UTF-8, as base64.
    const last = server.service.bundle().steps.at(-1);
    expect(last?.type === 'request' ? last.bodyBase64 : undefined).toBe(
      Buffer.from(bytes).toString('base64'),
    );
  });

  it('repeated set-cookie answers go out as separate headers, beside the body as built', async () => {
    const text = await (await fetch(`${server.url}/v2/account`, { headers: auth() })).text();
    const stop = server.service.override('account.retrieve', () => {
      const headers = new Headers({ 'content-type': 'application/json' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response(text, { headers });
    });
    try {
      const answer = await fetch(`${server.url}/v2/account`, { headers: auth() });
      expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(new Uint8Array(Buffer.from(text)));
    } finally {
      stop();
    }
  });

  it('a JSON answer goes out as its text, its length counted in bytes', async () => {
    const answer = await fetch(`${server.url}/v2/users`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9876500011', name: 'Ānanya Rāo ₹ ✓' }),
    });
    const text = await answer.text();
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(text).toContain('Ānanya Rāo ₹ ✓');
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  it('5.5: the client-IP header comes from the socket, never from the client', async () => {
    let seen: string | null = null;
    const stop = server.service.override('account.retrieve', ({ request }) => {
      seen = request.headers.get('x-mock-client-ip');
      return undefined;
    });
    try {
      const answer = await fetch(`${server.url}/v2/account`, {
        headers: { ...auth(), 'x-mock-client-ip': '203.0.113.7' },
      });
      expect(answer.status).toBe(200);
    } finally {
      stop();
    }
    expect(seen).toBe('127.0.0.1');
  });

  it('a GET carries no body, whatever bytes came with it', async () => {
    let bodyless = false;
    const stop = server.service.override('account.retrieve', ({ request }) => {
      bodyless = request.body === null;
      return undefined;
    });
    try {
      const answer = await rawExchange(
        [
          'GET /v2/account HTTP/1.1',
          `Host: ${new URL(server.url).host}`,
          `Authorization: Bearer ${server.service.sandboxKey}`,
          'Content-Length: 3',
        ],
        'abc',
      );
      expect(answer.status).toBe(200);
    } finally {
      stop();
    }
    expect(bodyless).toBe(true);
    const last = server.service.bundle().steps.at(-1);
    expect(last?.type === 'request' && (last.body ?? last.bodyBase64)).toBe(undefined);
  });

  it('8: a dropped connection (a network-error answer) closes the socket with no answer; the next is served', async () => {
    server.service.helpers.faults.inject({ kind: 'drop', match: { method: 'GET', path: '/v2/account' } });
    await expect(fetch(`${server.url}/v2/account`, { headers: auth() })).rejects.toThrow();
    expect((await fetch(`${server.url}/v2/account`, { headers: auth() })).status).toBe(200);
  });

  it('a request whose client leaves mid-body changes nothing, and the server serves on', async () => {
    const users = Object.keys(server.service.state.users.byId).length;
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v2/users HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${server.service.sandboxKey}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mobile":"98765',
          () => socket.destroy(),
        );
      });
      socket.on('close', () => resolve());
    });
    const after = await fetch(`${server.url}/v2/users`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9876500012' }),
    });
    expect(after.status).toBe(201);
    expect(Object.keys(server.service.state.users.byId)).toHaveLength(users + 1);
  });
});
