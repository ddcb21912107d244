// A key has no whitespace (the client refuses one that does), so everything up to the next whitespace after a key
// prefix is treated as key: a key echoed with characters outside [A-Za-z0-9_-] is masked whole.
const KEY_PATTERN = /pk_(live|sandbox)_\S+/g;

/**
 * Replaces anything that looks like an API key with its prefix and a mask, so a key echoed by a server, a proxy or
 * a caller's own message never reaches an error or a log line.
 */
export function redact(text: string): string {
  return text.replace(KEY_PATTERN, (_match, env: string) => `pk_${env}_***`);
}

/** `value` with every string in it redacted (objects and arrays copied, the rest kept). */
export function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) copy[redact(key)] = redactDeep(inner);
  return copy;
}

/** Headers with every value redacted (a proxy may echo the `Authorization` header back). */
export function redactHeaders(headers: Headers): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => {
    copy.append(name, redact(value));
  });
  return copy;
}

/**
 * An error's `cause` with any key in its message or stack (or its own cause's) masked. Causes with nothing to mask
 * are kept as they are (with their codes, such as `ECONNREFUSED`); others are copied, never changed in place.
 */
export function redactCause(cause: unknown, depth = 0): unknown {
  if (!(cause instanceof Error) || depth > 4) return typeof cause === 'string' ? redact(cause) : cause;
  const inner = redactCause(cause.cause, depth + 1);
  const message = redact(cause.message);
  const stack = cause.stack === undefined ? undefined : redact(cause.stack);
  if (message === cause.message && stack === cause.stack && inner === cause.cause) return cause;
  const copy = new Error(message, inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  copy.stack = stack;
  const code = (cause as { code?: unknown }).code;
  if (code !== undefined) Object.assign(copy, { code });
  return copy;
}
