/**
 * The state file of a shared local sandbox: loaded at start when present, written after changes and on
 * exit. The state is plain JSON (mock/core/state.ts), so a snapshot is the file. Writes go to a temporary
 * file first and are renamed over the old one, so a crash mid-write never leaves half a state.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { MockState } from '../core/state.js';
import type { MockSimulation as MockService } from '../simulation.js';

/**
 * Restores the service from `file` if it exists; returns whether it did.
 * @example
 * const loaded = await loadState(service, '.mock-state.json');
 */
export async function loadState(service: MockService, file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  let snapshot: MockState;
  try {
    snapshot = JSON.parse(await readFile(file, 'utf8')) as MockState;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The state file ${file} is not readable JSON (${detail}): fix it, or delete it to start afresh`,
    );
  }
  service.helpers.restore(snapshot);
  return true;
}

/**
 * Writes the service's state to `file` (atomically).
 * @example
 * await saveState(service, '.mock-state.json');
 */
export async function saveState(service: MockService, file: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(service.state));
  await rename(temporary, file);
}

/**
 * Saves after changes, at most once per `delayMs`, and never two writes at once.
 * @example
 * const saver = createSaver(service, file);
 * saver.changed();
 * await saver.flush();
 */
export function createSaver(service: MockService, file: string, delayMs = 200) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    timer = undefined;
    writing = writing
      .then(() => saveState(service, file))
      .catch((error: unknown) => {
        console.error(`Could not save the mock state to ${file}:`, error);
      });
    return writing;
  };
  return {
    /** Marks the state changed; a save follows shortly. */
    changed(): void {
      timer ??= setTimeout(write, delayMs);
    },
    /** Saves now (pending or not) and resolves when written. */
    flush(): Promise<void> {
      clearTimeout(timer);
      return write();
    },
  };
}
