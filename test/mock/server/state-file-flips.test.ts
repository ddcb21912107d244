/**
 * A one-bit flip anywhere in a state file (every page, offsets spread over each) is refused at start, or read
 * as damage (the request's 500), or changes nothing that is read: never a record read as missing or changed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateFile, type StateFile, StateFileError } from '../../../mock/server/persistence.js';
import { startMockServer } from '../../../mock/server/server.js';
import { seedTransactions } from '../../bench/mock-seed.js';

const dir = mkdtempSync(join(tmpdir(), 'inr-payouts-flips-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = 4096;
/** Offsets tried in each page. */
const PER_PAGE = 24;
let good: Buffer;
/** Every keyed record of the good file, as `[collection, key, JSON]`, and the whole state's JSON. */
const records: [string, string, string][] = [];
let whole = '';

/** The state of an open file read key by key, then whole: JSON of each record and of the state. */
function readAll(opened: StateFile) {
  const state = opened.state as unknown as Record<string, Record<string, Record<string, unknown>>>;
  const each = records.map(([collection, key]) => {
    const [slice = '', name = ''] = collection.split('.');
    return JSON.stringify(state[slice]?.[name]?.[key]);
  });
  return { each, whole: JSON.stringify(state) };
}

beforeAll(async () => {
  const file = join(dir, 'good.db');
  const stateFile = openStateFile(file);
  const server = await startMockServer({ port: 0, service: { seed: 'flips' }, stateFile });
  await seedTransactions(server.service, 30);
  for (let i = 0; i < 20; i++)
    server.service.helpers.users.seedVerified({ mobile: `96000000${String(i).padStart(2, '0')}` });
  stateFile.save();
  await server.close();
  good = readFileSync(file);
  const state = JSON.parse(JSON.stringify(server.service.state)) as Record<string, Record<string, unknown>>;
  for (const [slice, name] of [
    ['users', 'byId'],
    ['users', 'idByMobile'],
    ['transactions', 'byId'],
    ['webhooks', 'byId'],
    ['accounts', 'byId'],
  ] as const) {
    const collection = (state[slice]?.[name] ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(collection))
      records.push([`${slice}.${name}`, key, JSON.stringify(value)]);
  }
  const opened = openStateFile(file);
  ({ whole } = readAll(opened));
  opened.close();
  expect(records.length).toBeGreaterThan(100);
}, 60_000);

describe('a one-bit flip anywhere in a state file', () => {
  it('is refused at start (the file left as it is), or answered as damage, never read as a missing or changed record', () => {
    const pages = good.length / PAGE;
    expect(pages).toBeGreaterThan(20);
    const outcomes = { refused: 0, damage: 0, unchanged: 0 };
    const wrong: string[] = [];
    for (let page = 0; page < pages; page++) {
      for (let k = 0; k < PER_PAGE; k++) {
        // Spread over the page, and not always at the same place within a stretch.
        const at = page * PAGE + Math.floor((k * PAGE) / PER_PAGE) + ((page * 31 + k * 7) % 160);
        const bit = 1 << ((page + k) % 8);
        const bytes = Buffer.from(good);
        bytes[at] = (bytes[at] ?? 0) ^ bit;
        const file = join(dir, 'flipped.db');
        for (const path of [file, `${file}-wal`]) rmSync(path, { force: true });
        writeFileSync(file, bytes);
        let opened: StateFile;
        try {
          opened = openStateFile(file);
        } catch (error) {
          if (!(error instanceof StateFileError)) throw error;
          outcomes.refused += 1;
          if (!readFileSync(file).equals(bytes)) wrong.push(`byte ${at} bit ${bit}: a refused file changed`);
          continue;
        }
        let read: ReturnType<typeof readAll>;
        try {
          read = readAll(opened);
        } catch (error) {
          // Met while serving, the request's 500 (test/mock/server/state-file-safety.test.ts).
          if (!(error instanceof StateFileError)) throw error;
          outcomes.damage += 1;
          continue;
        } finally {
          opened.close();
        }
        for (const [index, [collection, key, value]] of records.entries())
          if (read.each[index] !== value)
            wrong.push(
              `byte ${at} bit ${bit}: ${collection} ${key} read as ${read.each[index]?.slice(0, 60)}`,
            );
        if (read.whole !== whole) wrong.push(`byte ${at} bit ${bit}: the state read differs`);
        outcomes.unchanged += 1;
      }
    }
    expect(wrong).toEqual([]);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.refused + outcomes.damage + outcomes.unchanged).toBe(pages * PER_PAGE);
  }, 300_000);
});

describe('a one-bit flip in a key, in its row and its index entry alike', () => {
  it('is refused at start, the file left as it is: never a record read as missing', () => {
    let tried = 0;
    for (const [index, [collection, key]] of records.entries()) {
      if (index % 7) continue;
      const name = Buffer.from(`${collection}${key}`);
      const copies: number[] = [];
      for (let at = good.indexOf(name); at >= 0; at = good.indexOf(name, at + 1)) copies.push(at);
      // Keys stored whole (a long list's items may share pages in other ways): the row and its index entry.
      if (copies.length < 2) continue;
      const bytes = Buffer.from(good);
      const offset = collection.length + (index % key.length);
      const bit = 1 << (index % 7);
      for (const at of copies) bytes[at + offset] = (bytes[at + offset] ?? 0) ^ bit;
      const file = join(dir, 'key-flipped.db');
      rmSync(`${file}-wal`, { force: true });
      writeFileSync(file, bytes);
      expect(() => openStateFile(file), `${collection} ${key}`).toThrow(/is damaged \(.+\): restore a copy/);
      expect(readFileSync(file).equals(bytes)).toBe(true);
      tried += 1;
    }
    expect(tried).toBeGreaterThan(10);
  }, 120_000);
});
