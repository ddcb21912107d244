/**
 * Where the webhook handler writes its lines: `console` by default, or the partner's logger (pino, winston,
 * bunyan and `console` all have these two methods). Each line is one line; `details` carries the partner's own
 * error, whose stack is worth reading, never a rejected request's.
 */
export interface WebhookLogger {
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/**
 * Which lines are written: `warn` (default) also logs each rejected request (a bad signature, a body too large,
 * cut off or too slow), `error` only the receiver's own failures (a function that threw, a store that failed, a
 * lost claim), `off` nothing.
 */
export type WebhookLogLevel = 'off' | 'error' | 'warn';

/**
 * At most `lines` lines of each level per `perMs`; past that, one line at the end of the interval counts what was
 * left out. Each level has its own count, so a flood of rejected requests never crowds out the receiver's errors.
 */
export interface WebhookLogLimit {
  lines: number;
  perMs: number;
}

const DEFAULT_LOG_LIMIT: WebhookLogLimit = { lines: 10, perMs: 60_000 };

const RANK = { off: 0, error: 1, warn: 2 } as const;
const PREFIX = 'inr-payouts webhook handler:';

/** One `(level, message, detail?)` function that keeps to `level` and to `limit`, however many requests come. */
export function limitedLog(
  logger: WebhookLogger = console,
  level: WebhookLogLevel = 'warn',
  { lines, perMs }: WebhookLogLimit = DEFAULT_LOG_LIMIT,
): (at: 'warn' | 'error', message: string, detail?: unknown) => void {
  if (!(lines >= 1 && perMs >= 1)) {
    throw new RangeError('logLimit: lines and perMs must be at least 1; logLevel: "off" writes no line.');
  }
  const bounded = (at: 'warn' | 'error') => {
    let started = Number.NEGATIVE_INFINITY;
    let written = 0;
    let dropped = 0;
    let summary: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      clearTimeout(summary);
      summary = undefined;
      if (dropped > 0) logger[at](`${PREFIX} ${dropped} more ${at} lines left out (logLimit).`);
      dropped = 0;
    };
    return (line: string, detail: unknown[]) => {
      const now = Date.now();
      if (now - started >= perMs) {
        flush();
        started = now;
        written = 0;
      }
      if (written++ < lines) return logger[at](line, ...detail);
      dropped++;
      // The count waits for the interval's end, never keeping alive a process that is otherwise done.
      summary ??= setTimeout(flush, started + perMs - now);
      (summary as { unref?: () => void }).unref?.();
    };
  };
  const write = { warn: bounded('warn'), error: bounded('error') };
  return (at, message, detail) => {
    if (RANK[at] <= RANK[level]) write[at](`${PREFIX} ${message}`, detail === undefined ? [] : [detail]);
  };
}
