/**
 * The state file of a shared local sandbox (`--state-file <path>`): a snapshot, `<path>` (`snapshot-file.ts`),
 * plus a journal of changes, `<path>.journal`, one JSON line per save after a header naming the snapshot's
 * generation.
 *
 * - Durable before answering: after each request the changes it made (found by `journal.ts` without
 *   reading the whole state) are appended and `fdatasync`ed before the answer is written, so an answered
 *   write survives `kill -9`. A save costs what the request changed, not the size of the state.
 * - Compaction never holds a request up: when the journal outgrows 16 MB and a quarter of the snapshot, a
 *   new snapshot is written to `<path>.next.tmp` a chunk at a time between requests (at most a few ms
 *   each), synced off the main thread, and put in place: the journal lines saved meanwhile are copied to a
 *   new journal, then both files are renamed in. The new snapshot says which journal, up to which byte, it holds, so after a
 *   crash between the two renames the old journal's later lines are still applied. A reset or restore (a
 *   new state altogether) and a stop write the snapshot whole, at once.
 * - Loading happens before the port opens: the snapshot, then the journal's lines that follow it (a torn
 *   last line, never answered, is dropped), then one check of the whole state; any problem stops the start
 *   with the file and what is wrong. The journal is then continued where it ends.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { withKeyedCollections } from '../core/records.js';
import type { MockState } from '../core/state.js';
import { checkState, InvalidStateError } from '../core/state-schema.js';
import type { MockSimulation as MockService } from '../simulation.js';
import { type Entry, replayInto, type StateTracker, trackState } from './journal.js';
import { readSnapshot, snapshotWriter, UnreadableSnapshotError } from './snapshot-file.js';

const COMPACT_AT_BYTES = 16 * 1024 * 1024;
/** The longest a background compaction works before letting requests in. */
const SLICE_MS = 1;
/** How much of a snapshot written in the background may wait to be synced. */
const SYNC_EVERY_BYTES = 4 * 1024 * 1024;

function fail(file: string, what: string): never {
  throw new Error(
    `The state file ${file} ${what}: fix it, or delete it (and ${file}.journal) to start afresh`,
  );
}

function syncDirectory(file: string): void {
  try {
    const fd = openSync(dirname(file), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open a directory; the rename is still atomic there.
  }
}

/** Writes a journal that follows snapshot `generation` (then `tail`, lines copied from the last one) to `path`, synced. */
function writeJournal(path: string, generation: string, tail?: Buffer): number {
  const fd = openSync(path, 'w');
  try {
    let bytes = writeSync(fd, `${JSON.stringify({ follows: generation })}\n`);
    if (tail?.length) bytes += writeSync(fd, tail);
    fsyncSync(fd);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Bytes `from` to `to` of a file. */
function readRange(file: string, from: number, to: number): Buffer {
  const out = Buffer.alloc(Math.max(0, to - from));
  const fd = openSync(file, 'r');
  let done = 0;
  try {
    while (done < out.length) {
      const read = readSync(fd, out, done, out.length - done, from + done);
      if (read === 0) break;
      done += read;
    }
  } finally {
    closeSync(fd);
  }
  return out.subarray(0, done);
}

/**
 * A state read from a state file, and where its journal can be continued.
 * @example
 * const loaded: LoadedState | undefined = readStateFile(file);
 */
export interface LoadedState {
  state: MockState;
  /**
   * Set when the state came from a snapshot of this format and a journal that follows it: the snapshot's
   * generation and size, and the journal's bytes `from` (its first line after the snapshot) `to` (the end
   * of its last whole line). `inPlace` is false when the journal belongs to the previous snapshot (a
   * compaction was cut short after its snapshot was in place): those lines are then copied to a new one.
   */
  resume?: {
    generation: string;
    snapshotBytes: number;
    journal: { from: number; to: number; inPlace: boolean };
  };
}

/**
 * Reads and checks the state in `file` and its journal; `undefined` when there is no file. Throws with
 * the file's name and what is wrong.
 * @example
 * const loaded = readStateFile('.mock-state.json');
 */
export function readStateFile(file: string): LoadedState | undefined {
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  let snapshot: ReturnType<typeof readSnapshot>;
  try {
    snapshot = readSnapshot(bytes);
  } catch (error) {
    if (error instanceof UnreadableSnapshotError) fail(file, error.message);
    throw error;
  }
  const check = (value: unknown): MockState => {
    try {
      return checkState(value);
    } catch (error) {
      if (error instanceof InvalidStateError) fail(file, `is ${error.message}`);
      throw error;
    }
  };
  const parsed = snapshot.state;
  // Checked once, after the journal is applied (the whole state is what must be right).
  const isState = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  const state = withKeyedCollections(isState ? (parsed as MockState) : check(parsed));
  const journal = `${file}.journal`;
  if (!existsSync(journal)) return { state: check(state) };
  const lines = readFileSync(journal);
  const headerEnd = lines.indexOf(10);
  let header: { follows?: unknown; snapshot?: unknown } | undefined;
  try {
    header = JSON.parse(lines.toString('utf8', 0, Math.max(headerEnd, 0)));
  } catch {
    header = undefined;
  }
  const { generation, covers } = snapshot.header ?? {};
  let from: number | undefined;
  let inPlace = true;
  if (generation !== undefined && header?.follows === generation) from = headerEnd + 1;
  else if (covers && header?.follows === covers.generation) {
    from = Math.min(covers.bytes, lines.length);
    inPlace = false;
  } else if (
    generation === undefined &&
    header?.snapshot === createHash('sha256').update(bytes).digest('hex')
  ) {
    from = headerEnd + 1; // the journal of an earlier version's state file
  }
  // Otherwise the journal follows an older snapshot (a crash between a compaction's renames): the
  // snapshot holds everything it says.
  if (from === undefined) return { state: check(state) };
  const replay = replayInto(state);
  let to = from;
  // Counted only for a message: the journal may be long.
  const lineAt = (offset: number) => lines.subarray(0, offset).filter((byte) => byte === 10).length + 1;
  for (let start = from; start < lines.length; ) {
    const end = lines.indexOf(10, start);
    // A last line with no end was being written when the process died: it was never answered.
    if (end < 0) break;
    let entry: Entry;
    try {
      entry = JSON.parse(lines.toString('utf8', start, end)) as Entry;
    } catch {
      if (end === lines.length - 1) break; // torn the same way, with its newline already on disk
      fail(journal, `has an unreadable line ${lineAt(start)}`);
    }
    try {
      replay.apply(entry);
    } catch (error) {
      check(parsed); // a snapshot that is not a state is the better message
      fail(
        journal,
        `has a line ${lineAt(start)} that does not apply (${error instanceof Error ? error.message : error})`,
      );
    }
    start = end + 1;
    to = start;
  }
  replay.finish();
  const checked = check(state);
  if (generation === undefined) return { state: checked };
  return {
    state: checked,
    resume: { generation, snapshotBytes: bytes.length, journal: { from, to, inPlace } },
  };
}

/**
 * Keeps `service`'s state in `file`: call `save()` before answering each request; `close()` at exit.
 * @example
 * const stateFile = openStateFile(service, '.mock-state.json');
 * stateFile.save();
 */
export function openStateFile(
  service: MockService,
  file: string,
  {
    compactAtBytes,
    resume,
  }: {
    /** Compact when the journal is larger than this; by default, than 16 MB and a quarter of the snapshot. */
    compactAtBytes?: number;
    resume?: LoadedState['resume'];
  } = {},
) {
  const journalFile = `${file}.journal`;
  const temporary = { snapshot: `${file}.tmp`, next: `${file}.next.tmp`, journal: `${journalFile}.tmp` };
  let tracker: StateTracker = trackState(service.state as MockState);
  let fd = -1;
  let generation = '';
  let journalBytes = 0;
  let snapshotBytes = 0;
  let background: { cancel(): void } | undefined;
  let idle: Promise<void> = Promise.resolve();

  /** Puts a synced snapshot and journal in place (snapshot first) and continues the new journal. */
  const switchTo = (next: string, snapshotFile: string, journal: Buffer | undefined, size: number) => {
    const journalSize = writeJournal(temporary.journal, next, journal);
    renameSync(snapshotFile, file);
    syncDirectory(file);
    renameSync(temporary.journal, journalFile);
    syncDirectory(journalFile);
    if (fd >= 0) closeSync(fd);
    fd = openSync(journalFile, 'a');
    generation = next;
    journalBytes = journalSize;
    snapshotBytes = size;
  };

  /** Writes the whole state now: at the start, after a reset or restore, at a stop. */
  const compactNow = () => {
    background?.cancel();
    tracker = trackState(service.state as MockState);
    const next = randomUUID();
    const writer = snapshotWriter(tracker, temporary.snapshot, { stateFile: 1, generation: next });
    while (writer.next()) {}
    writer.syncSync();
    writer.close();
    switchTo(next, temporary.snapshot, undefined, writer.bytes);
  };

  /** Writes a new snapshot a slice at a time between requests, then switches to it. */
  const compactInBackground = () => {
    const covers = { generation, bytes: journalBytes };
    const next = randomUUID();
    const writer = snapshotWriter(tracker, temporary.next, { stateFile: 1, generation: next, covers });
    let cancelled = false;
    const run = async () => {
      let synced = 0;
      for (let more = true; more; ) {
        await new Promise((resolve) => setImmediate(resolve));
        if (cancelled) return;
        const until = performance.now() + SLICE_MS;
        while (more && performance.now() < until && writer.bytes - synced < SYNC_EVERY_BYTES) {
          more = writer.next();
        }
        // Synced a few MB at a time: on a journaling file system the journal's own sync would otherwise
        // wait for all of the snapshot not yet on disk.
        if (more && writer.bytes - synced >= SYNC_EVERY_BYTES) {
          synced = writer.bytes;
          await writer.sync();
        }
      }
      await writer.sync();
      if (cancelled) return;
      // The lines saved while the snapshot was written follow it: they start the new journal.
      const tail = readRange(journalFile, covers.bytes, journalBytes);
      writer.close();
      switchTo(next, temporary.next, tail, writer.bytes);
    };
    background = {
      cancel() {
        cancelled = true;
        rmSync(temporary.next, { force: true });
      },
    };
    idle = run()
      .catch((error: unknown) => {
        // The journal still holds everything; a later save starts another compaction.
        console.error('inr-payouts mock: could not compact the state file:', error);
        rmSync(temporary.next, { force: true });
      })
      .finally(() => {
        writer.close();
        background = undefined;
      });
  };

  // A temporary file is only ever left by a crash during a compaction; the renamed files are complete.
  for (const path of Object.values(temporary)) rmSync(path, { force: true });
  if (resume) {
    generation = resume.generation;
    snapshotBytes = resume.snapshotBytes;
    const { from, to, inPlace } = resume.journal;
    if (inPlace) {
      // Continued where its last whole line ends (a torn last line is cut off).
      truncateSync(journalFile, to);
      fd = openSync(journalFile, 'a');
      journalBytes = to;
    } else {
      // A compaction put its snapshot in place and was stopped before its journal: finish it.
      const tail = readRange(journalFile, from, to);
      journalBytes = writeJournal(temporary.journal, generation, tail);
      renameSync(temporary.journal, journalFile);
      syncDirectory(journalFile);
      fd = openSync(journalFile, 'a');
    }
  } else {
    compactNow();
  }

  const save = (): void => {
    // A reset or restore replaced the whole state: it is saved whole.
    if (service.state !== tracker.state) {
      compactNow();
      return;
    }
    const line = tracker.collect();
    if (line === undefined) return;
    const bytes = Buffer.from(`${line}\n`);
    writeSync(fd, bytes);
    fdatasyncSync(fd);
    journalBytes += bytes.length;
    // A quarter of the snapshot: a start after a crash then reads at most 1.25 times the state.
    const limit = compactAtBytes ?? Math.max(COMPACT_AT_BYTES, snapshotBytes / 4);
    if (!background && journalBytes > limit) compactInBackground();
  };

  return {
    /** Appends what changed since the last save and syncs it to disk; starts a compaction now and then. */
    save,
    /** Resolves when no compaction is under way. */
    settled: (): Promise<void> => idle,
    /** Saves, writes the whole state (so a restart reads one snapshot), and closes the journal. */
    close(): void {
      save();
      compactNow();
      closeSync(fd);
      fd = -1;
    },
  };
}

/**
 * A state file opened with {@link openStateFile}.
 * @example
 * let stateFile: StateFile | undefined;
 */
export type StateFile = ReturnType<typeof openStateFile>;
