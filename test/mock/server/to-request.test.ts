/**
 * The standalone server hands dispatch a fetch `Request` made from node's request: its headers read as fetch's
 * `Headers` reads them (joined, `set-cookie` apart, in name order), its body byte for byte from node's pooled
 * buffers, and the exchange over it reads the same headers, body and query.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Exchange } from '../../../mock/engine/exchange.js';
import { toRequest } from '../../../mock/server/node-http.js';

const RAW = [
  'Authorization',
  'Bearer pk_sandbox_1',
  'X-Multi',
  'one',
  'x-multi',
  ' two ',
  'Cookie',
  'a=1',
  'cookie',
  'b=2',
  'Set-Cookie',
  's=1',
  'set-cookie',
  't=2',
  'Accept',
  'application/json',
];

const pairs = (raw: readonly string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return out;
};

/** A node request as `node:http` hands one to the server, from no socket of its own. */
function nodeRequest(method: string, raw: string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.rawHeaders = raw;
  return req;
}

describe('the request the server makes of node’s', () => {
  it('reads its headers as fetch Headers: lower case, joined, set-cookie apart, in name order', () => {
    const request = toRequest(nodeRequest('GET', RAW), 'http://127.0.0.1:4010/v2/account', Buffer.alloc(0));
    const fetched = new Headers(pairs(RAW));
    const seen = [...request.headers].filter(([name]) => name !== 'x-mock-client-ip');
    expect(seen).toEqual([...fetched]);
    for (const name of ['authorization', 'X-MULTI', 'cookie', 'set-cookie', 'accept', 'absent'])
      expect(request.headers.get(name)).toBe(fetched.get(name));
  });

  it('an exchange over it reads its headers, body and query', async () => {
    const body = new TextEncoder().encode('{"userId":"usr_1","note":"₹ ✓"}');
    // A slice of a larger buffer, as node's pooled buffers are: only the request's bytes are read.
    const pooled = Buffer.alloc(body.byteLength + 8);
    pooled.set(body, 4);
    const url = 'http://127.0.0.1:4010/v2/users?x=1';
    const request = toRequest(nodeRequest('POST', RAW), url, pooled.subarray(4, 4 + body.byteLength));
    const exchange = new Exchange(request, '/v2/users');
    expect(exchange.header('x-multi')).toBe('one, two');
    expect(exchange.hasBody).toBe(true);
    expect(new Uint8Array(await exchange.bytes())).toEqual(body);
    expect(exchange.text).toBe('{"userId":"usr_1","note":"₹ ✓"}');
    expect(exchange.query).toEqual({ x: '1' });
    expect(exchange.request).toBe(request);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(url);
  });

  it('a GET carries no body, whatever bytes came with it', async () => {
    const request = toRequest(nodeRequest('GET', []), 'http://127.0.0.1:4010/v2/account', Buffer.alloc(3));
    const exchange = new Exchange(request, '/v2/account');
    expect(exchange.hasBody).toBe(false);
    expect((await exchange.bytes()).byteLength).toBe(0);
    expect(exchange.request.body).toBeNull();
  });
});
