/**
 * Headers that belong to one HTTP connection, not to the request a caller made: the standalone server does
 * not hand them to the pipeline, and a replay bundle does not record them.
 */

/** The hop-by-hop headers (lower case) that the connection carries. */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
