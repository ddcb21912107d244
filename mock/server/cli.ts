/**
 * `npx inr-payouts-mock`: parses the options, starts the server, prints what a caller needs (base URL,
 * sandbox API key, webhook secret), keeps the state file, and shuts down cleanly on SIGINT, SIGTERM and SIGHUP,
 * or when the process that started it ends.
 */
import { parseArgs } from 'node:util';
import { type ChaosOptions, parseChaosFlag } from '../core/chaos.js';
import { runCheckReceiver } from '../receiver-check/cli.js';
import { isLoopback } from './guard.js';
import { openStateFile, readStateFile, type StateFile } from './persistence.js';
import { startMockServer } from './server.js';

const USAGE = `Usage: inr-payouts-mock [options]
       inr-payouts-mock check-receiver <url> --secret <s>   (grade your webhook endpoint; --help for more)

Serves the inr-payouts mock (the whole payout service, simulated) over HTTP.

Options:
  --port <n>          Port to listen on (default 4010; 0 picks a free one)
  --host <addr>       Address to bind (default 127.0.0.1, local only)
  --speed <s>         Clock: "realtime" (default), a factor ("60" = a virtual minute per second),
                      or "manual" (time moves only through POST /__mock/clock/advance)
  --start-time <iso>  Virtual time at start (default: now)
  --seed <text>       Seed of every generated ID, key, OTP and address (default inr-payouts)
  --webhook-url <url> Where the account's webhooks are POSTed
  --state-file <path> Keep the state in this file (and <path>.journal): loaded at start if present,
                      every change saved before its answer
  --chaos <seed>[,rate=0.2][,kinds=5xx+429+latency+drop+drop-after-commit][,latency=2000][,method=POST]
                      Seeded faults on API requests; the same seed replays them (docs/chaos-and-the-ledger.md)
  --help              Show this help

Stops on SIGINT, SIGTERM or SIGHUP, and when the process that started it (npx, a test harness) ends.
Test helpers: GET /__mock lists them. The guide: docs/mock-server.md in this package
(node_modules/inr-payouts/docs/mock-server.md), or https://github.com/inr-payouts/inr-payouts/blob/main/docs/mock-server.md`;

/**
 * Parsed command-line options.
 * @example
 * const options = parseCli(['--port', '0', '--speed', 'manual']);
 */
export interface CliOptions {
  port: number;
  host: string;
  /** Virtual ms per real ms, or `manual` for a clock that only moves when told. */
  speed: number | 'manual';
  startTime?: string;
  seed?: string;
  webhookUrl?: string;
  stateFile?: string;
  chaos?: ChaosOptions;
  help: boolean;
}

function saveOrWarn(stateFile: StateFile | undefined): void {
  try {
    stateFile?.save();
  } catch (error) {
    console.error('inr-payouts mock: could not save the state:', error);
  }
}

function fail(message: string): never {
  throw new Error(`${message}\n\n${USAGE}`);
}

/**
 * Parses and checks the arguments; throws with the usage text on a bad one.
 * @example
 * parseCli(['--speed', '60']).speed; // 60
 */
export function parseCli(argv: string[]): CliOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const port = Number(values.port ?? '4010');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be 0 to 65535, got ${values.port}`);
  const speedText = values.speed ?? 'realtime';
  const speed = speedText === 'realtime' ? 1 : speedText === 'manual' ? 'manual' : Number(speedText);
  if (speed !== 'manual' && !(Number.isFinite(speed) && speed > 0)) {
    fail(`--speed must be realtime, manual or a positive factor, got ${speedText}`);
  }
  if (values['start-time'] !== undefined && !Number.isFinite(Date.parse(values['start-time']))) {
    fail(`--start-time must be an ISO 8601 time, got ${values['start-time']}`);
  }
  const webhookUrl = values['webhook-url'];
  if (webhookUrl !== undefined && !URL.canParse(webhookUrl))
    fail(`--webhook-url is not a URL: ${webhookUrl}`);
  let chaos: ChaosOptions | undefined;
  try {
    chaos = values.chaos === undefined ? undefined : parseChaosFlag(values.chaos);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  return {
    chaos,
    port,
    host: values.host ?? '127.0.0.1',
    speed,
    startTime: values['start-time'],
    seed: values.seed,
    webhookUrl,
    stateFile: values['state-file'],
    help: values.help ?? false,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      speed: { type: 'string' },
      'start-time': { type: 'string' },
      seed: { type: 'string' },
      'webhook-url': { type: 'string' },
      'state-file': { type: 'string' },
      chaos: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
}

/**
 * Runs the server until SIGINT, SIGTERM or SIGHUP, or until the process that started it ends.
 * @example
 * await runCli(process.argv.slice(2));
 */
export async function runCli(argv: string[]): Promise<void> {
  if (argv[0] === 'check-receiver') return runCheckReceiver(argv.slice(1));
  const options = parseCli(argv);
  if (options.help) {
    console.log(USAGE);
    return;
  }
  let onRequest = (): void => {};
  // Read and checked before the port opens: a bad file stops the start, and no request meets a half state.
  const initial = options.stateFile ? readStateFile(options.stateFile) : undefined;
  const loaded = initial !== undefined;
  let stateFile: StateFile | undefined;
  const running = await startMockServer({
    port: options.port,
    host: options.host,
    // A real-time clock starts at the wall clock, so webhook signatures pass receivers' 300 s tolerance.
    service: { seed: options.seed, startTime: options.startTime ?? Date.now() },
    onReady: (service) => {
      // Checked while it was read: adopted as it is, not checked and copied again.
      if (initial) service.adopt(initial.state);
      if (options.stateFile)
        stateFile = openStateFile(service, options.stateFile, { resume: initial?.resume });
    },
    beforeAnswer: () => stateFile?.save(),
    onRequest: () => onRequest(),
  });
  const { service } = running;
  // Changes the clock makes between requests (timers on a real-time clock) are saved within 100 ms.
  const saving = stateFile ? setInterval(() => saveOrWarn(stateFile), 100) : undefined;
  saving?.unref();
  const behind = Date.now() - service.clock.now();
  // At real speed, virtual time is wall time: the time the sandbox was down has passed (sessions expired...).
  if (loaded && options.speed === 1 && !options.startTime && behind > 0) await service.clock.advance(behind);
  if (options.webhookUrl) service.helpers.accounts.update({ webhookUrl: options.webhookUrl });
  if (options.chaos) service.helpers.faults.chaos(options.chaos);
  saveOrWarn(stateFile);
  onRequest = () => {
    // Work a request scheduled for "now" (attempt 1 of a webhook is immediate) runs now, even on a manual clock.
    service.clock
      .runDue()
      .catch((error: unknown) => console.error('inr-payouts mock: a timer task failed:', error));
  };
  if (options.speed !== 'manual') service.clock.startRealtime({ speed: options.speed });

  const speed =
    options.speed === 'manual' ? 'manual' : options.speed === 1 ? 'real time' : `${options.speed}x`;
  console.log(`inr-payouts mock listening on ${running.url}`);
  console.log(`  sandbox API key: ${service.sandboxKey}`);
  console.log(`  webhook secret:  ${service.webhookSecret}`);
  console.log(`  clock:           ${service.clock.nowIso()} (${speed})`);
  if (options.webhookUrl) console.log(`  webhooks to:     ${options.webhookUrl}`);
  if (options.chaos)
    console.log(`  chaos:           seed ${options.chaos.seed} (GET /__mock/faults/chaosLog)`);
  if (options.stateFile)
    console.log(`  state file:      ${options.stateFile} (${loaded ? 'loaded' : 'new'})`);
  console.log(`  test helpers:    ${running.url}/__mock`);
  if (!isLoopback(options.host)) {
    console.warn(
      `warning: listening on ${options.host}, not a loopback address: the test helpers (/__mock: reset, restore, accounts/update...) and the pages are open to every machine that can reach this one. Use --host 127.0.0.1 unless the network is yours alone.`,
    );
  }

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (reason: string) => {
      if (stopping) return;
      stopping = true;
      clearInterval(watching);
      service.clock.stop();
      clearInterval(saving);
      running
        .close()
        .then(() => stateFile?.close())
        .then(() => console.log(`inr-payouts mock stopped (${reason})`))
        .catch((error: unknown) => console.error('inr-payouts mock: error while stopping:', error))
        .finally(resolve);
    };
    const watching = watchParent(() => stop('the process that started it ended'));
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  });
}

/**
 * Calls `onGone` once the process that started this one has ended. `npx inr-payouts-mock` runs the bin under
 * `sh -c`, which does not pass SIGTERM or SIGINT on: a harness that ends `npx` ends only the shell, and the
 * server would keep serving and hold its port. Node has no parent-death signal, so this asks the kernel every
 * half second whether the parent still exists (`kill(pid, 0)` sends nothing). A parent of PID 1 or less means
 * a container's init or a service manager started it: nothing to watch.
 * @example
 * const timer = watchParent(() => server.close());
 */
export function watchParent(
  onGone: () => void,
  parent: number = process.ppid,
  intervalMs = 500,
): NodeJS.Timeout | undefined {
  if (parent <= 1) return undefined;
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch (error) {
      // EPERM: it exists but belongs to another user, so it is still there.
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') return;
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  // The watch alone never keeps the process running.
  timer.unref();
  return timer;
}
