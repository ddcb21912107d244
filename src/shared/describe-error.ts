/** What a thrown value says: an `Error`'s message, anything else as text (a thrown string or number). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
