import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback HTTP server answering every request with one small JSON envelope, for per-request cost benchmarks. */
export async function startLoopback(): Promise<{ url: string; close: () => Promise<void> }> {
  const body = JSON.stringify({
    success: true,
    data: {
      id: '4a7c2c1e-0d7e-4a53-9a55-1f8f3a2b9c10',
      name: 'Acme',
      environment: 'sandbox',
      status: 'active',
    },
  });
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
