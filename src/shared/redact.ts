// A key has no whitespace, so all up to the next whitespace after a prefix is key: odd characters are masked too.
const KEY_PATTERN = /pk_(live|sandbox)_\S+/g;

/** Masks anything like an API key, so one echoed by a server, a proxy or a caller never reaches an error or log. */
export function redact(text: string): string {
  return text.replace(KEY_PATTERN, (_match, env: string) => `pk_${env}_***`);
}

export function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) copy[redact(key)] = redactDeep(inner);
  return copy;
}

/** A proxy may echo the `Authorization` header back. */
export function redactHeaders(headers: Headers): Headers {
  const copy = new Headers();
  for (const [name, value] of headers) copy.append(name, redact(value));
  return copy;
}

/** A cause with nothing to mask is kept (with codes such as `ECONNREFUSED`); others are copied, never changed. */
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
