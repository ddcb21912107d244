/**
 * Where a run's recorder (mock/observe/recorder.ts) listens in on what the mock service takes from outside the
 * requests and helper calls it is given: the ticks of a real-time clock, and each webhook attempt's wall-clock
 * signing second and receiver's answer. While a bundle is replayed the same tap answers from the bundle
 * instead. The tap is a field of the service, so the clock and the delivery task need no recorder import. A tap,
 * not the stream (mock/engine/stream.ts): a replay must answer these calls, and a stream's records go one way.
 */
/** A receiver's answer to one webhook attempt, as the delivery task reads it. */
export interface DeliveryOutcome {
  ok: boolean;
  timedOut?: boolean;
  status?: number;
  /** The receiver's answer body, its first 2,048 characters. */
  responseBody?: string;
  error?: string;
}

/** What the clock and the delivery task tell the recorder, and what a replay answers them. */
export interface ServiceTap {
  /** A real-time tick moves the clock by `ms` of virtual time: `move` does it. */
  tick(ms: number, move: () => Promise<unknown>): Promise<unknown>;
  /** A webhook attempt of `eventId` is signed now: the second to sign with, and how its answer comes. */
  attempt(
    eventId: string,
    wallSeconds: number,
  ): { timestamp: number; answer(post: () => Promise<DeliveryOutcome>): Promise<DeliveryOutcome> };
  /** True while a bundle is replayed: real-time waits (an injected latency) are skipped. */
  readonly replaying: boolean;
}
