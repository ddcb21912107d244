/**
 * The state file's journal saves exactly the live state: after a varied workload over HTTP (users, OTPs,
 * KYC, transactions paid out by the clock, webhooks delivered to a receiver, helpers, a reset), reading the
 * file back gives the state the server holds, with or without compactions on the way.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../../mock/server/journal.js';
import {
  type LoadedState,
  openStateFile,
  readStateFile,
  type StateFile,
} from '../../../mock/server/persistence.js';
import { type RunningMockServer, startMockServer } from '../../../mock/server/server.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-journal-'));
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

async function run(compactAtBytes: number): Promise<void> {
  const file = join(dir, `state-${compactAtBytes}.json`);
  let stateFile: StateFile | undefined;
  const server = await startMockServer({
    port: 0,
    service: { seed: 'journal', startTime: '2025-03-01T09:00:00Z' },
    onReady: (service) => {
      stateFile = openStateFile(service, file, { compactAtBytes });
    },
    beforeAnswer: () => stateFile?.save(),
    onRequest: () => {
      server?.service.clock.runDue().catch(() => undefined);
    },
  });
  try {
    await workload(server);
    // Deliveries finish after their requests: the save after them catches what they changed.
    await new Promise((resolve) => setTimeout(resolve, 200));
    stateFile?.save();
    expect(readStateFile(file)?.state).toEqual(JSON.parse(JSON.stringify(server.service.state)));
    await fetch(`${server.url}/__mock/reset`, { method: 'POST' });
    await workload(server);
    await new Promise((resolve) => setTimeout(resolve, 200));
    stateFile?.save();
    expect(readStateFile(file)?.state).toEqual(JSON.parse(JSON.stringify(server.service.state)));
    // A compaction under way has its temporary file; none is left once it is done.
    await stateFile?.settled();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  } finally {
    await server.close();
  }
}

/** The first line of a file, parsed. */
function header(path: string): Record<string, unknown> {
  const text = readFileSync(path, 'utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n'))) as Record<string, unknown>;
}

/** What a start does with a loaded state file: adopt the state, open the file; `opened` runs before it is closed. */
async function reopen(file: string, loaded: LoadedState | undefined, opened = () => {}): Promise<void> {
  const restarted = await startMockServer({ port: 0 });
  try {
    if (loaded) restarted.service.adopt(loaded.state);
    const stateFile = openStateFile(restarted.service, file, { resume: loaded?.resume });
    opened();
    stateFile.close();
  } finally {
    await restarted.close();
  }
}

describe('the state file journal', () => {
  it('loses nothing when a compaction stops between putting its snapshot and its journal in place', async () => {
    const file = join(dir, 'cut-short.json');
    let stateFile: StateFile | undefined;
    const server = await startMockServer({
      port: 0,
      service: { seed: 'cut-short', startTime: '2025-03-01T09:00:00Z' },
      onReady: (service) => {
        // Compacts (in the background, between requests) after every save.
        stateFile = openStateFile(service, file, { compactAtBytes: 1 });
      },
      beforeAnswer: () => stateFile?.save(),
    });
    try {
      await workload(server);
      await stateFile?.settled();
      // A save starts a compaction; the next one, in the same turn, is saved while it is under way.
      server.service.helpers.users.seedVerified({ mobile: '9000000011' });
      stateFile?.save();
      server.service.helpers.users.seedVerified({ mobile: '9000000012' });
      stateFile?.save();
      await stateFile?.settled();
      const live = JSON.parse(JSON.stringify(server.service.state));
      const snapshot = header(file) as { generation: string; covers: { generation: string; bytes: number } };
      expect(snapshot.covers).toBeDefined();
      expect(header(`${file}.journal`)).toEqual({ follows: snapshot.generation });
      // What a crash just after the snapshot's rename leaves: the previous journal, whose lines up to
      // `covers.bytes` the snapshot holds (their content no longer matters) and whose later lines follow it.
      const journal = readFileSync(`${file}.journal`, 'utf8');
      const previousHeader = `${JSON.stringify({ follows: snapshot.covers.generation })}\n`;
      const later = journal.slice(journal.indexOf('\n') + 1);
      expect(later).toContain('+919000000012');
      const covered = '\n'.repeat(snapshot.covers.bytes - previousHeader.length);
      writeFileSync(`${file}.journal`, `${previousHeader}${covered}${later}`);

      const loaded = readStateFile(file);
      expect(loaded?.state).toEqual(live);
      expect(loaded?.resume?.journal.inPlace).toBe(false);
      // Opening it finishes the compaction: a journal that follows the snapshot, the same state.
      await reopen(file, loaded, () => {
        expect(header(`${file}.journal`)).toEqual({ follows: snapshot.generation });
        expect(readStateFile(file)?.state).toEqual(live);
      });
      expect(readStateFile(file)?.state).toEqual(live);
    } finally {
      await server.close();
    }
  });

  it('starts from a plain snapshot (GET /__mock/snapshot) and rewrites it as a state file', async () => {
    const source = await startMockServer({ port: 0, service: { seed: 'plain' } });
    const file = join(dir, 'plain.json');
    try {
      await workload(source);
      const snapshot = source.service.helpers.snapshot();
      writeFileSync(file, JSON.stringify(snapshot, null, 2));
      const loaded = readStateFile(file);
      expect(loaded?.state).toEqual(snapshot);
      expect(loaded?.resume).toBeUndefined();
      await reopen(file, loaded);
      expect(header(file)).toMatchObject({ stateFile: 1 });
      expect(readStateFile(file)?.state).toEqual(snapshot);
    } finally {
      await source.close();
    }
  });

  it('saves what a request adds to a growing list (timers, the ledger), not the whole list', async () => {
    const file = join(dir, 'appends.json');
    let stateFile: StateFile | undefined;
    const server = await startMockServer({
      port: 0,
      service: { seed: 'appends' },
      onReady: (service) => {
        stateFile = openStateFile(service, file);
      },
      beforeAnswer: () => stateFile?.save(),
    });
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
      const first = await create('9123400001');
      const second = await create('9123400002');
      const lines = readFileSync(`${file}.journal`, 'utf8').trim().split('\n');
      const last = JSON.parse(lines.at(-1) ?? '{}') as Entry;
      expect(last.appended).toEqual([['http.ledger', 1, [expect.objectContaining({ id: second })]]]);
      expect(JSON.stringify(last)).not.toContain(first);
      // The timers the second create scheduled are added; the first one's are not saved again.
      const previous = JSON.parse(lines.at(-2) ?? '{}') as Entry;
      const ids = (entry: Entry) => entry.timers?.add.map((timer) => timer.id) ?? [];
      expect(ids(last).length).toBeGreaterThan(0);
      expect(ids(last)).toHaveLength(ids(previous).length);
      expect(ids(last).filter((id) => ids(previous).includes(id))).toEqual([]);
      expect(last.timers?.remove).toEqual([]);
      expect(readStateFile(file)?.state).toEqual(JSON.parse(JSON.stringify(server.service.state)));
    } finally {
      await server.close();
    }
  });

  it('reads back exactly the live state after a varied workload', async () => {
    await run(16 * 1024 * 1024);
  });

  it('reads back exactly the live state when it compacts every few saves', async () => {
    await run(4 * 1024);
  });
});
