// A request handed over as plain values, to a `fetch` that says it takes them (the in-process mock's own): the
// client then makes no second fetch `Request` of ky's, which cost a call through `mock.fetch` more than the
// simulation's own work. `Symbol.for` so copies of the client and the mock from two bundles agree.
export const PLAIN_FETCH: unique symbol = Symbol.for('inr-payouts.plainFetch');

/** One attempt as the client sends it: header names lower case, the body as serialised. */
export interface PlainCall {
  method: string;
  /** Absolute, as `Request#url` serialises it. */
  url: string;
  headers: Record<string, string>;
  body: string | ArrayBuffer | undefined;
  signal: AbortSignal;
}

export type PlainFetch = (call: PlainCall) => Promise<Response>;

/** The plain form of a `fetch`, when it has one. */
export function plainFetchOf(fetch: unknown): PlainFetch | undefined {
  if (typeof fetch !== 'function') return undefined;
  const plain: unknown = (fetch as { [PLAIN_FETCH]?: unknown })[PLAIN_FETCH];
  return typeof plain === 'function' ? (plain as PlainFetch) : undefined;
}
