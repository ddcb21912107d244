import { Worker } from 'node:worker_threads';

/** One account envelope, valid against the `Account` schema, so the client's response validation runs in full. */
const body = JSON.stringify({
  success: true,
  data: {
    id: '4a7c2c1e-0d7e-4a53-9a55-1f8f3a2b9c10',
    name: 'Acme',
    email: 'ops@acme.test',
    environment: 'sandbox',
    status: 'active',
    apiKeyPrefix: 'pk_sandbox_',
    webhookUrl: 'https://acme.test/webhooks',
    volume: { monthlyUsd: 125000, totalUsd: 2400000 },
    limits: { rateLimit: 100 },
  },
});

// The server runs on its own thread: on the benchmark's thread its work would be added to every contender's
// time and flatten the ratios the quality bars are about.
const serverSource = `
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = workerData;
const length = Buffer.byteLength(body);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

/**
 * A loopback HTTP server on a worker thread answering every request with one account envelope, for per-request
 * cost benchmarks.
 */
export async function startLoopback(): Promise<{ url: string; close: () => Promise<void> }> {
  const worker = new Worker(serverSource, { eval: true, workerData: body });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await worker.terminate();
    },
  };
}
