/**
 * One stream of records per service: a request received, the same exchange answered, a stored resource's
 * transition. The journal, the recorder and the test suite's conformance check subscribe to it; a record is the
 * exchange itself, so nothing is copied or serialised for a listener that is not there.
 */
import type { MockState } from '../state/mock-state.js';
import type { Exchange } from './exchange.js';
import type { TransitionDraft } from './journal.js';

/** One record of the stream. */
export type StreamRecord =
  /** A request under the base URL arrived; its body is being read. */
  | { type: 'received'; exchange: Exchange }
  /** The same request was answered (`exchange.answer`), or failed (no `answer`). */
  | { type: 'answered'; exchange: Exchange }
  | { type: 'transition'; state: MockState; transition: TransitionDraft };

/** A subscriber: called in order, synchronously, with each record. */
export type StreamListener = (record: StreamRecord) => void;

/** The stream of one service. */
export type Stream = ReturnType<typeof createStream>;

/** A stream with no subscriber yet. */
export function createStream() {
  const listeners = new Set<StreamListener>();
  return {
    /** Calls `listener` with every record from now on; returns the function that stops it. */
    subscribe(listener: StreamListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(record: StreamRecord): void {
      for (const listener of listeners) listener(record);
    },
  };
}
