/**
 * The standalone server's requests reach dispatch without a fetch `Request`: their headers must read exactly as
 * fetch's `Headers` reads them, and a route that asks for a `Request` gets the same one the server used to make.
 */
import { describe, expect, it } from 'vitest';
import { Exchange } from '../../../mock/engine/exchange.js';
import { fetchRequest, PlainHeaders, type PlainRequest } from '../../../mock/engine/plain-request.js';

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

describe('plain requests', () => {
  it('headers read and iterate as fetch Headers: lower case, joined, set-cookie apart, in name order', () => {
    const plain = new PlainHeaders(RAW);
    const fetched = new Headers(pairs(RAW));
    expect([...plain]).toEqual([...fetched]);
    for (const name of ['authorization', 'X-MULTI', 'cookie', 'set-cookie', 'accept', 'absent'])
      expect(plain.get(name)).toBe(fetched.get(name));
  });

  it('an exchange over a plain request reads its headers and body, and makes the same fetch Request', async () => {
    const body = new TextEncoder().encode('{"userId":"usr_1","note":"₹ ✓"}');
    // A slice of a larger buffer, as node's pooled buffers are: only the request's bytes are read.
    const pooled = new Uint8Array(body.byteLength + 8);
    pooled.set(body, 4);
    const plain: PlainRequest = {
      method: 'POST',
      url: 'http://127.0.0.1:4010/v2/users?x=1',
      rawHeaders: RAW,
      body: pooled.subarray(4, 4 + body.byteLength),
    };
    const exchange = new Exchange(plain, '/v2/users');
    expect(exchange.header('x-multi')).toBe('one, two');
    expect([...exchange.headerEntries()]).toEqual([...new Headers(pairs(RAW))]);
    expect(exchange.hasBody).toBe(true);
    expect(new Uint8Array(await exchange.bytes())).toEqual(body);
    expect(exchange.text).toBe('{"userId":"usr_1","note":"₹ ✓"}');
    expect(exchange.query).toEqual({ x: '1' });

    const request = exchange.request;
    expect(request).toBe(exchange.request);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(plain.url);
    expect([...request.headers]).toEqual([...new Headers(pairs(RAW))]);
    expect(new Uint8Array(await fetchRequest(plain).arrayBuffer())).toEqual(body);
  });

  it('a GET carries no body, whatever bytes came with it', async () => {
    const exchange = new Exchange(
      { method: 'GET', url: 'http://127.0.0.1:4010/v2/account', rawHeaders: [], body: new Uint8Array(3) },
      '/v2/account',
    );
    expect(exchange.hasBody).toBe(false);
    expect((await exchange.bytes()).byteLength).toBe(0);
    expect(exchange.request.body).toBeNull();
  });
});
