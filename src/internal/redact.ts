const KEY_PATTERN = /pk_(live|sandbox)_[A-Za-z0-9_-]+/g;

/**
 * Replaces anything that looks like an API key with its prefix and a mask, so a key echoed by a server, a proxy or
 * a caller's own message never reaches an error or a log line.
 */
export function redact(text: string): string {
  return text.replace(KEY_PATTERN, (_match, env: string) => `pk_${env}_***`);
}
