/**
 * A guided run (`--guided`): a standard transaction carried through on a target without the mock's helpers,
 * where the partner sends the testnet deposit and the service's own time moves it on. Each side gets the same
 * calls: the reference plays the deposit and moves its virtual clock itself; the target's side announces the
 * deposit, then polls the API as a partner's code would, within a deadline. Polling is not recorded (the two
 * sides poll different numbers of times); only what each wait came to is compared.
 */
import type { PayoutClient } from '../../src/index.js';
import { describeError } from '../../src/shared/describe-error.js';
import type { MockHelperCalls } from '../connect.js';
import type { MockService } from '../service.js';
import type { ConformanceReceiver } from './scenarios/webhook-receiver.js';

/** The deposit the partner is asked to send, from the create-transaction answer. */
export interface GuidedDeposit {
  transactionId: string;
  depositAddress: string;
  depositNetwork: string;
  depositAsset: string;
  expectedAmount: string;
  /** The deadline for the deposit (ISO 8601). */
  expiresAt: string;
}

/** What a guided scenario gets on one side. */
export interface GuidedSide {
  /** A KYC-verified user with a verified bank account to transact for. */
  userId(mobile: string): Promise<string>;
  /** The receiver this side's deliveries arrive at, verified with the account's webhook secret. */
  readonly receiver: ConformanceReceiver;
  /** Asks for the deposit (the reference makes it; the target's side prints it and calls `onDeposit`). */
  deposit(deposit: GuidedDeposit): Promise<void>;
  /**
   * Waits until `check` holds, naming `what` in progress; false when the deadline passed first. A wait ends on
   * the first poll that sees it, so it outlives what it waits for by one poll interval at most.
   */
  until(what: string, check: () => Promise<boolean>): Promise<boolean>;
  /**
   * A client for the waits: not recorded, paced as the rest. Waits read the wire with its `request()` (no
   * schema), so a field that drifted elsewhere in the answer never hides the status waited for.
   */
  readonly quiet: PayoutClient;
  /** Says `line` at once in the progress (the target's side), prefixed `guided: `. */
  note(line: string): void;
}

/** Why a guided run cannot start on a target without the mock's helpers and without `--user-id`. */
export const GUIDED_USER_NEEDED =
  "--guided needs --user-id on a target without the mock's helpers: a KYC-verified user with a verified bank account on the target to transact for (the run seeds one itself only through a mock's /__mock helpers, and KYC on a sandbox needs a person)";

/** The guided options of a run, checked. */
export interface GuidedSettings {
  webhookSecret: string;
  /** The partner's verified user; without one, the run seeds one through the target's helpers. */
  userId: string | undefined;
  onDeposit: ((deposit: GuidedDeposit) => void | Promise<void>) | undefined;
  pollIntervalMs: number;
  timeoutMs: number;
}

/** The reference's side: its own verified user and deposit, its clock moved 5 s at a time while it waits. */
export function referenceGuided(
  mock: MockService,
  receiver: ConformanceReceiver,
  quiet: PayoutClient,
): GuidedSide {
  return {
    receiver,
    quiet,
    note: () => {},
    userId: async (mobile) => mock.helpers.users.seedVerified({ mobile }).userId,
    async deposit({ transactionId }) {
      mock.helpers.transactions.simulateDeposit({ transactionId });
      await mock.helpers.webhooks.settle();
    },
    async until(_what, check) {
      // A day of virtual time at most: the mock's slowest rule is far shorter.
      for (let step = 0; step < 17_280; step++) {
        if (await check()) return true;
        await mock.clock.advance('5s');
        await mock.helpers.webhooks.settle();
      }
      return false;
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The target's side: the partner's user (or, on a target with the mock's helpers, one seeded as the other
 * scenarios seed theirs), the deposit printed for the partner to send, real-time polling.
 */
export function targetGuided(
  settings: GuidedSettings,
  receiver: ConformanceReceiver,
  quiet: PayoutClient,
  progress: (line: string) => void,
  helpers: MockHelperCalls | undefined,
): GuidedSide {
  return {
    receiver,
    quiet,
    note: (line) => progress(`guided: ${line}`),
    async userId(mobile) {
      if (settings.userId !== undefined) return settings.userId;
      // The run checked before it started that a target without helpers was given --user-id.
      if (!helpers) throw new Error(GUIDED_USER_NEEDED);
      return (await helpers.users.seedVerified({ mobile })).userId;
    },
    async deposit(deposit) {
      progress(
        `guided: send ${deposit.expectedAmount} ${deposit.depositAsset} on ${deposit.depositNetwork} (testnet) to ${deposit.depositAddress} before ${deposit.expiresAt} (transaction ${deposit.transactionId}); waiting for it`,
      );
      await settings.onDeposit?.(deposit);
    },
    async until(what, check) {
      const deadline = Date.now() + settings.timeoutMs;
      let nextNote = Date.now() + 30_000;
      // A poll that fails (the client has already retried it) is "not yet": the deadline decides, not one request.
      const holds = () =>
        check().catch((error: unknown) => {
          progress(`guided: a poll for ${what} failed (${describeError(error)}); trying again`);
          return false;
        });
      for (let poll = 1; ; poll++) {
        if (await holds()) {
          // The poll count is what a drifted target must not lengthen: the tests compare it with a clean run's.
          progress(`guided: ${what}: seen (poll ${poll})`);
          return true;
        }
        if (Date.now() >= deadline) {
          progress(`guided: ${what}: not seen within ${Math.round(settings.timeoutMs / 1000)} s; going on`);
          return false;
        }
        if (Date.now() >= nextNote) {
          progress(`guided: still waiting for ${what}`);
          nextNote = Date.now() + 30_000;
        }
        await sleep(settings.pollIntervalMs);
      }
    },
  };
}
