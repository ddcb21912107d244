/**
 * The state file of a shared local sandbox (`--state-file <path>`): a snapshot, `<path>`, plus a journal of
 * changes, `<path>.journal`, one JSON line per save.
 *
 * - Durable before answering: after each request the changes it made (found by `journal.ts` without
 *   reading the whole state) are appended and `fdatasync`ed before the answer is written, so an answered
 *   write survives `kill -9`. A save costs what the request changed, not the size of the state.
 * - Clock-driven changes between requests (timers on a real-time clock) are saved within 100 ms.
 * - Compaction: when the journal outgrows the snapshot (and 16 MB), the whole state is written to
 *   `<path>.tmp`, synced and renamed over `<path>`, and a fresh journal is started the same way. The
 *   journal's first line names the SHA-256 of the snapshot it follows, so a journal left behind by a crash
 *   between the two renames is recognised as older than the snapshot and ignored.
 * - Loading happens before the port opens: the snapshot, then the journal's lines in order (a torn last
 *   line, never answered, is dropped), then the whole state is validated; any problem stops the start with
 *   the file and what is wrong. The journal is then continued where it ends.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readFileSync,
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
import { applyEntry, type Entry, type StateTracker, trackState } from './journal.js';

const COMPACT_AT_BYTES = 16 * 1024 * 1024;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function fail(file: string, what: string): never {
  throw new Error(
    `The state file ${file} ${what}: fix it, or delete it (and ${file}.journal) to start afresh`,
  );
}

/** Writes `text` to `file` durably and atomically: a temporary file, synced, renamed, directory synced. */
function replaceFile(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  syncDirectory(file);
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

/**
 * A state read from a state file, and where its journal can be continued.
 * @example
 * const loaded: LoadedState | undefined = readStateFile(file);
 */
export interface LoadedState {
  state: MockState;
  /** Set when the journal follows the snapshot: its bytes up to the last whole line, and the snapshot's size. */
  resume?: { journalBytes: number; snapshotBytes: number };
}

/**
 * Reads and checks the state in `file` and its journal; `undefined` when there is no file. Throws with
 * the file's name and what is wrong.
 * @example
 * const loaded = readStateFile('.mock-state.json');
 */
export function readStateFile(file: string): LoadedState | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail(file, `is not readable JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const check = (value: unknown): MockState => {
    try {
      return checkState(value);
    } catch (error) {
      if (error instanceof InvalidStateError) fail(file, `is ${error.message}`);
      throw error;
    }
  };
  const journal = `${file}.journal`;
  if (!existsSync(journal)) return { state: withKeyedCollections(check(parsed)) };
  // Checked once, after the journal is applied (the whole state is what must be right).
  const isState = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  const state = withKeyedCollections(isState ? (parsed as MockState) : check(parsed));
  const lines = readFileSync(journal, 'utf8').split('\n');
  let header: { snapshot?: unknown } | undefined;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    header = undefined;
  }
  // A journal that follows another snapshot was left by a crash during compaction: the snapshot is newer.
  if (header?.snapshot !== sha256(text)) return { state: check(state) };
  let journalBytes = Buffer.byteLength(`${lines[0]}\n`);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    let entry: Entry;
    try {
      entry = JSON.parse(line) as Entry;
    } catch {
      // The last line may be torn by a crash while it was written: it was never answered.
      if (i >= lines.length - 2) break;
      fail(journal, `has an unreadable line ${i + 1}`);
    }
    try {
      applyEntry(state, entry);
    } catch (error) {
      check(parsed); // a snapshot that is not a state is the better message
      fail(
        journal,
        `has a line ${i + 1} that does not apply (${error instanceof Error ? error.message : error})`,
      );
    }
    if (i < lines.length - 1) journalBytes += Buffer.byteLength(`${line}\n`);
  }
  return { state: check(state), resume: { journalBytes, snapshotBytes: text.length } };
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
    compactAtBytes = COMPACT_AT_BYTES,
    resume,
  }: { compactAtBytes?: number; resume?: LoadedState['resume'] } = {},
) {
  let tracker: StateTracker;
  let fd = -1;
  let journalBytes = 0;
  let snapshotBytes = 0;

  const compact = () => {
    if (fd >= 0) closeSync(fd);
    const text = JSON.stringify(service.state);
    replaceFile(file, text);
    replaceFile(`${file}.journal`, `${JSON.stringify({ snapshot: sha256(text) })}\n`);
    fd = openSync(`${file}.journal`, 'a');
    snapshotBytes = text.length;
    journalBytes = 0;
    tracker = trackState(service.state as MockState);
  };
  // A temporary file is only ever left by a crash during a compaction; the renamed files are complete.
  rmSync(`${file}.tmp`, { force: true });
  rmSync(`${file}.journal.tmp`, { force: true });
  if (resume) {
    // The state was just read from this snapshot and journal: continue the journal (without a torn last
    // line) rather than rewrite the whole state before the first request.
    truncateSync(`${file}.journal`, resume.journalBytes);
    fd = openSync(`${file}.journal`, 'a');
    journalBytes = resume.journalBytes;
    snapshotBytes = resume.snapshotBytes;
    tracker = trackState(service.state as MockState);
  } else {
    compact();
  }

  const save = (): void => {
    // A reset or restore replaced the whole state: it is saved whole.
    if (service.state !== tracker.state) {
      compact();
      return;
    }
    const line = tracker.collect();
    if (line === undefined) return;
    const bytes = Buffer.from(`${line}\n`);
    writeSync(fd, bytes);
    fdatasyncSync(fd);
    journalBytes += bytes.length;
    if (journalBytes > Math.max(compactAtBytes, snapshotBytes)) compact();
  };

  return {
    /** Appends what changed since the last save and syncs it to disk; compacts now and then. */
    save,
    /** Saves, compacts, and closes the journal. */
    close(): void {
      save();
      compact();
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
