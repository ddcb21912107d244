/**
 * The snapshot of a state file, as lines of JSON, so that it can be written a slice at a time while the
 * server keeps answering, and read a line at a time without a second copy of the whole text:
 *
 * ```text
 * {"stateFile":1,"generation":"<id>","covers":{"generation":"<id>","bytes":123}}   the header
 * {"rest":{...}}                                                                    the state but its collections and timers
 * {"timers":[...]}                                                                  pending timers, in order, in chunks
 * {"slice":"transactions","collection":"byId","entries":{...}}                      each keyed collection, in chunks
 * ```
 *
 * `covers` is set when the snapshot was written while the server ran: it holds the journal of generation
 * `covers.generation` up to `covers.bytes`, and that journal's later lines follow it. A file holding one
 * plain state (`GET /__mock/snapshot`, or a state file of an earlier version) is read too.
 */
import { closeSync, fsync, fsyncSync, openSync, writeSync } from 'node:fs';
import { KEYED_COLLECTIONS, sliceOf } from '../core/records.js';
import type { MockState } from '../core/state.js';
import { restOf, type StateTracker } from './journal.js';

/** The first line of a snapshot. */
export interface SnapshotHeader {
  stateFile: 1;
  generation: string;
  covers?: { generation: string; bytes: number };
}

/**
 * About this many bytes of JSON per line: a slice of work small enough not to hold a request up, and strings
 * small enough to be collected young (larger ones go to the heap's large-object space, freed only by a full
 * collection).
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * Writes a snapshot of `tracker.state` to `path` piece by piece: each `next()` writes about one chunk and
 * answers whether more is left. Entries are read when their chunk is written, so a snapshot written across
 * requests holds each entry as it was at some moment after it began; the journal lines saved meanwhile
 * (last writer wins) bring every entry to its latest value on loading.
 */
export function snapshotWriter(tracker: StateTracker, path: string, header: SnapshotHeader) {
  const { state } = tracker;
  const fd = openSync(path, 'w');
  let bytes = 0;
  const write = (line: string) => {
    bytes += writeSync(fd, `${line}\n`);
  };
  function* pieces(): Generator<void> {
    write(JSON.stringify(header));
    write(JSON.stringify({ rest: restOf(state) }));
    const timers = [...state.timers];
    let part: string[] = [];
    let size = 0;
    const flush = (open: string, close: string) => {
      write(`${open}${part.join(',')}${close}`);
      part = [];
      size = 0;
    };
    for (const timer of timers) {
      const json = JSON.stringify(timer);
      part.push(json);
      size += json.length;
      if (size >= CHUNK_BYTES) {
        flush('{"timers":[', ']}');
        yield;
      }
    }
    if (part.length) flush('{"timers":[', ']}');
    for (const [index, [slice, collection]] of KEYED_COLLECTIONS.entries()) {
      const open = `{"slice":"${slice}","collection":"${collection}","entries":{`;
      const entries = tracker.collection(index);
      if (!entries) continue;
      const keys = Object.keys(entries);
      // An empty line still says the collection exists.
      if (!keys.length) flush(open, '}}');
      for (const key of keys) {
        // Deleted since the keys were listed: the journal says so.
        if (!Object.hasOwn(entries, key)) continue;
        const json = `${JSON.stringify(key)}:${JSON.stringify(entries[key])}`;
        part.push(json);
        size += json.length;
        if (size >= CHUNK_BYTES) {
          flush(open, '}}');
          yield;
        }
      }
      if (part.length) flush(open, '}}');
    }
  }
  const steps = pieces();
  let open = true;
  let syncing = false;
  const close = () => {
    if (open && !syncing) closeSync(fd);
    open = false;
  };
  return {
    /** Writes the next chunk; `false` once everything is written. */
    next(): boolean {
      return !steps.next().done;
    },
    /** Bytes written so far. */
    get bytes() {
      return bytes;
    },
    /** Syncs what is written to disk. */
    syncSync(): void {
      fsyncSync(fd);
    },
    /** Syncs what is written to disk off the main thread. */
    sync(): Promise<void> {
      syncing = true;
      return new Promise((resolve, reject) =>
        fsync(fd, (error) => {
          syncing = false;
          // Closed while the sync ran: the descriptor is let go only now, so it is never reused under it.
          if (!open) closeSync(fd);
          if (error) reject(error);
          else resolve();
        }),
      );
    },
    /** Closes the file (after a sync under way, if any). */
    close,
  };
}

/** Why a snapshot could not be read, said of the file. */
export class UnreadableSnapshotError extends Error {
  override readonly name = 'UnreadableSnapshotError';
}

function parseLine(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new UnreadableSnapshotError(
      line === 1 ? `is not readable JSON (${why})` : `has an unreadable line ${line} (${why})`,
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a snapshot from the file's bytes: its header (none for a plain state) and the state, unchecked
 * (the caller checks it once the journal is applied), with null-prototype keyed collections.
 */
export function readSnapshot(bytes: Buffer): { header?: SnapshotHeader; state: unknown } {
  const firstEnd = bytes.indexOf(10);
  const first = bytes.toString('utf8', 0, firstEnd < 0 ? bytes.length : firstEnd);
  if (!first.startsWith('{"stateFile":')) {
    // One plain state, perhaps written by hand or pretty-printed.
    const state = parseLine(bytes.toString('utf8'), 1);
    return { state };
  }
  const header = parseLine(first, 1) as SnapshotHeader;
  if (header.stateFile !== 1 || typeof header.generation !== 'string') {
    throw new UnreadableSnapshotError('has a header of an unknown version (written by a newer mock?)');
  }
  let state: Record<string, unknown> | undefined;
  const timers: unknown[] = [];
  let line = 1;
  for (let start = firstEnd + 1; start < bytes.length; ) {
    const end = bytes.indexOf(10, start);
    const stop = end < 0 ? bytes.length : end;
    line += 1;
    const piece = parseLine(bytes.toString('utf8', start, stop), line);
    start = stop + 1;
    if (!isObject(piece)) throw new UnreadableSnapshotError(`has a line ${line} that is not an object`);
    if (isObject(piece.rest)) {
      state = piece.rest;
    } else if (Array.isArray(piece.timers)) {
      for (const timer of piece.timers) timers.push(timer);
    } else if (typeof piece.slice === 'string' && isObject(piece.entries) && state) {
      const spec = KEYED_COLLECTIONS.find(([s, c]) => s === piece.slice && c === piece.collection);
      const holder = spec && sliceOf(state as unknown as MockState, spec[0]);
      if (!spec || !isObject(holder)) {
        throw new UnreadableSnapshotError(`has a line ${line} for an unknown collection`);
      }
      const entries = piece.entries;
      const held = holder[spec[1]];
      if (isObject(held)) Object.assign(held, entries);
      else holder[spec[1]] = Object.setPrototypeOf(entries, null);
    } else {
      throw new UnreadableSnapshotError(`has a line ${line} that is not part of a snapshot`);
    }
  }
  if (!state) throw new UnreadableSnapshotError('has no state after its header');
  state.timers = timers;
  return { header, state };
}
