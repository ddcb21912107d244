/**
 * How deep a request body's JSON may nest. `JSON.parse` itself takes any depth, but every walk of the value
 * after it (the idempotency fingerprint, validation, the journal, a snapshot) recurses, and an array nested
 * 50,000 deep overflows the stack there: such a body is refused with a 400 before it is parsed.
 */

/** The deepest a JSON body may nest arrays and objects: the mock's own limit (docs/mock-only.md). */
export const MAX_JSON_DEPTH = 64;

/** Whether `text`, read as JSON, nests arrays and objects deeper than `limit`: one pass, strings skipped. */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: one preceded by an even number of backslashes.
      let end = text.indexOf('"', i + 1);
      for (; end > 0; end = text.indexOf('"', end + 1)) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      if (end < 0) return false; // not JSON: the parser says so
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The words of the refusal of a body nested deeper than {@link MAX_JSON_DEPTH}. */
export const TOO_DEEP = `the request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (the mock's limit; no body of the interface comes near it)`;
