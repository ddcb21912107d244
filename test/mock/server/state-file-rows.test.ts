/**
 * The state file saves exactly the live state: after a varied workload over HTTP (users, OTPs, KYC,
 * transactions paid out by the clock, webhooks delivered to a receiver, helpers, a reset), reading the
 * database back gives the state the server holds; a request writes the rows it changed, not the state.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'node-sqlite3-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateFile } from '../../../mock/server/persistence.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-rows-'));
let receiver: Server;
let receiverUrl: string;
beforeAll(async () => {
  receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The state the file holds now, read as a restart reads it. */
function reread(file: string): unknown {
  const loaded = openStateFile(file);
  // Entries are read when first used: all of them, before the file is closed.
  const state = JSON.parse(JSON.stringify(loaded.state));
  loaded.close();
  return state;
}

/** A server whose state is saved to `file` before each answer. */
async function serve(file: string, seed: string) {
  const stateFile = openStateFile(file);
  const server = await startMockServer({
    port: 0,
    service: { seed, startTime: '2025-03-01T09:00:00Z' },
    stateFile,
  });
  return { server, stateFile };
}

async function workload(server: RunningMockServer): Promise<void> {
  const headers = {
    Authorization: `Bearer ${server.service.sandboxKey}`,
    'Content-Type': 'application/json',
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as { data: Record<string, unknown> };
  };
  const helper = async (path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/__mock/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body ?? null),
    });
    return (await response.json()) as { data: Record<string, unknown> };
  };
  await helper('accounts/update', { webhookUrl: receiverUrl });
  for (let i = 0; i < 3; i++) {
    const { userId } = (await helper('users/seedVerified', { mobile: `98765000${i}1` })).data as {
      userId: string;
    };
    await api('POST', `/v2/users/${userId}/kyc/declaration`, {
      occupation: 'salaried',
      incomeRange: '5l_to_10l',
      isPep: false,
      declarationAccepted: true,
    });
    const created = await api('POST', '/v2/transactions', {
      userId,
      amount: '100',
      asset: 'USDT',
      network: 'polygon',
      partnerReference: `order-${i}`,
    });
    const transactionId = String(created.data.transactionId);
    const ms = (await helper('transactions/simulateDeposit', { transactionId, amount: '100' })).data;
    await helper('clock/advance', ms);
    await helper('clock/advance', '1h');
    await api('GET', `/v2/transactions/${transactionId}`);
    await api('GET', '/v2/account/activity');
  }
  const { data: user } = await api('POST', '/v2/users', { mobile: '9123456780' });
  await api('POST', `/v2/users/${String(user.userId)}/verify/mobile/send`);
  await helper('faults/inject', { kind: 'error', status: 503, match: { path: '/v2/account' } });
  await api('GET', '/v2/account');
  await api('GET', '/v2/webhooks');
}

describe('the state file rows', () => {
  it('reads back exactly the live state after a varied workload, a reset and the same workload again', async () => {
    const file = join(dir, 'varied.db');
    let { server } = await serve(file, 'rows');
    try {
      for (let round = 0; round < 2; round++) {
        await workload(server);
        // Deliveries finish after their requests: the save after them catches what they changed.
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Read as a restart reads it, then continued where it was, by a server that loaded it.
        await server.close();
        const live = JSON.parse(JSON.stringify(server.service.state));
        expect(reread(file)).toEqual(live);
        ({ server } = await serve(file, 'rows'));
        expect(JSON.parse(JSON.stringify(server.service.state))).toEqual(live);
        await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
      }
    } finally {
      await server.close();
    }
  });

  it("writes what a request adds to a growing list (the ledger, an account's IDs) as new rows, not the whole list", async () => {
    const file = join(dir, 'appends.db');
    const { server } = await serve(file, 'appends');
    let second: string;
    try {
      const create = async (mobile: string) => {
        const response = await fetch(`${server.url}/v2/users`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${server.service.sandboxKey}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': crypto.randomUUID(),
          },
          body: JSON.stringify({ mobile }),
        });
        return ((await response.json()) as { data: { userId: string } }).data.userId;
      };
      await create('9123400001');
      second = await create('9123400002');
    } finally {
      await server.close();
    }
    {
      const db = new Database(file);
      try {
        // The engine has no shared memory for a WAL file's index: one connection at a time, exclusively.
        db.exec('PRAGMA locking_mode = EXCLUSIVE');
        const ledger = db.all(
          "SELECT position, value FROM entries WHERE collection = 'http.ledger' AND position >= 0 ORDER BY position",
        );
        expect(ledger).toHaveLength(2);
        expect(String(ledger[1]?.value)).toContain(second);
        const timers = db.all("SELECT key FROM entries WHERE collection = 'timers'");
        expect(timers.length).toBe(server.service.state.timers.length);
      } finally {
        db.close();
      }
      expect(reread(file)).toEqual(JSON.parse(JSON.stringify(server.service.state)));
    }
  });

  it('a crash image (the file and its write-ahead log as kill -9 leaves them) loads every committed write', async () => {
    const file = join(dir, 'crash.db');
    const stateFile = openStateFile(file);
    const server = await startMockServer({ port: 0, service: { seed: 'crash' }, stateFile });
    try {
      // Enough writes that the file's newest pages are in the log only, past the end of the file itself.
      for (let i = 0; i < 300; i++) {
        server.service.helpers.users.seedVerified({ mobile: `9300${String(i).padStart(6, '0')}` });
        stateFile.save();
      }
      const image = join(dir, 'crash-image.db');
      copyFileSync(`${file}-wal`, `${image}-wal`);
      copyFileSync(file, image);
      expect(existsSync(`${image}-wal`)).toBe(true);
      expect(reread(image)).toEqual(JSON.parse(JSON.stringify(server.service.state)));
    } finally {
      await server.close();
    }
  });
});
