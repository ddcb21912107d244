/**
 * The receivers a run's webhook scenarios point the account at. Each scenario gets a fresh one on 127.0.0.1,
 * or, with `--receiver-url`, the run's one receiver on `--receiver-port`, told to the target at that URL (a
 * target in a container reaches the host at `host.containers.internal`, not at its loopback). A target side
 * whose receivers got no delivery at all could not reach them: that is said, and not compared.
 */
import { type ConformanceReceiver, startReceiver } from './scenarios/webhook-receiver.js';

/** One side's receivers. */
export interface ReceiverSessions {
  /** A receiver for one scenario, verifying with `secret`. */
  open(secret: string): Promise<ConformanceReceiver>;
  /** The receivers opened since the last `reset`. */
  readonly opened: ConformanceReceiver[];
  reset(): void;
}

/** A receiver per scenario on a free port, or `shared` (the one `--receiver-url` reaches) for every scenario. */
export function receiverSessions(shared?: ConformanceReceiver): ReceiverSessions {
  const opened: ConformanceReceiver[] = [];
  return {
    opened,
    async open(secret) {
      if (!shared) {
        const own = await startReceiver(secret);
        opened.push(own);
        return own;
      }
      shared.use(secret);
      // The run closes it once, after the last scenario.
      const session = { ...shared, received: shared.received, close: async () => {} };
      opened.push(session);
      return session;
    },
    reset: () => {
      opened.length = 0;
    },
  };
}

/** The port a receiver listens on when `--receiver-url` is given without `--receiver-port`. */
export const DEFAULT_RECEIVER_PORT = 8787;

/**
 * Why a scenario was not compared when the target's receivers got nothing while the reference's got deliveries,
 * or undefined when they did (or no receiver was used).
 */
export function receiverAdvice(
  target: ReceiverSessions,
  reference: ReceiverSessions,
  port: number | undefined,
): string | undefined {
  const got = (s: ReceiverSessions) => s.opened.reduce((n, r) => n + r.received.length, 0);
  if (target.opened.length === 0 || got(target) > 0 || got(reference) === 0) return undefined;
  const at = port ?? DEFAULT_RECEIVER_PORT;
  return `not compared: the target delivered nothing to the run's receiver at ${target.opened[0]?.url}, so it could not reach it. Give a URL it can reach with --receiver-url (a target in a container: http://host.containers.internal:${at}/webhooks), the receiver listening on 127.0.0.1:${at} (--receiver-port)`;
}
