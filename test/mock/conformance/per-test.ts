/**
 * What a conformance test starts for itself in front of the file's standalone servers: a drifted sandbox, and
 * listeners of its own (a partner's tunnel to the run's receiver, another host). Each is closed after the test
 * that started it, so the next test meets none of them.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { RunningServer } from '../server/support.js';
import {
  type DriftedSandbox,
  type Plant,
  type ProxiedDelivery,
  startDriftedSandbox,
} from './drifted-sandbox.js';

/** Starts what one test needs; see {@link startedPerTest}. */
export interface PerTest {
  /** The drifted sandbox with `plant` (none: a clean proxy) in front of `server`, which is emptied first. */
  sandbox: (plant: Plant | undefined, server: RunningServer) => Promise<DriftedSandbox>;
  /** A listener on a free 127.0.0.1 port answering with `handler`: its origin (`http://127.0.0.1:port`). */
  listen: (handler: RequestListener) => Promise<string>;
  /**
   * The partner's tunnel to the run's receiver on `receiverPort`: forwards each delivery, with `rewrite` applied
   * on the way (given the account's webhook `secret`, for a rewrite that signs again). Its webhook URL.
   */
  tunnel: (receiverPort: number, rewrite: Plant['delivery'], secret: string) => Promise<string>;
}

/** Closes a listener, its open connections too. */
function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * For the tests of the file or `describe` block this is called in: what each starts with the returned
 * {@link PerTest} is closed after it.
 * @example
 * const started = startedPerTest();
 * it('…', async () => {
 *   const sandbox = await started.sandbox(PLANTS.statusCode, server);
 * });
 */
export function startedPerTest(): PerTest {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const listen: PerTest['listen'] = async (handler) => {
    const server = createServer(handler);
    closers.push(() => closed(server));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  return {
    sandbox: async (plant, server) => {
      const sandbox = await startDriftedSandbox(plant, server);
      closers.push(sandbox.close);
      return sandbox;
    },
    listen,
    tunnel: async (receiverPort, rewrite, secret) => {
      const origin = await listen(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name))
            headers[name] = value;
        let delivery: ProxiedDelivery = { body: Buffer.concat(chunks).toString('utf8'), headers };
        if (rewrite) delivery = rewrite(delivery, secret);
        const answer = await fetch(`http://127.0.0.1:${receiverPort}/webhooks`, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
        });
        res.writeHead(answer.status).end();
      });
      return `${origin}/webhooks`;
    },
  };
}
