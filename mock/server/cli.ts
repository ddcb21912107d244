/**
 * `npx inr-payouts-mock`: parses the options, starts the server, prints what a caller needs (base URL,
 * sandbox API key, webhook secret), keeps the state file, and shuts down cleanly on SIGINT, SIGTERM and SIGHUP,
 * or when what launched it ends (npx and its shell, a harness; `mock/server/launcher.ts`).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeError } from '../../src/shared/describe-error.js';
import { runConformanceCli } from '../conformance/cli.js';
import { MOCK_PROFILES } from '../contract/mock-only.js';
import { type MockBundle, parseBundle, replayable } from '../engine/bundle.js';
import type { MockBudgets } from '../engine/options.js';
import { parseChaosFlag } from '../policies/chaos.js';
import { runCheckReceiver } from '../receiver-check/cli.js';
import { isLoopback } from './guard.js';
import { INSPECTOR_PATH } from './inspector/index.js';
import { launcherPids, watchProcesses } from './launcher.js';
import { openStateFile, type StateFile } from './persistence.js';
import { startMockServer } from './server.js';
import { realTimeHint } from './speed-hint.js';

const USAGE = `Usage: inr-payouts-mock [options]
       inr-payouts-mock check-receiver <url> --secret <s>   (grade your webhook endpoint; --help for more)
       inr-payouts-mock conformance --base-url <url>        (where a sandbox differs from the mock; --help for more)

Serves the inr-payouts mock (the whole payout service, simulated) over HTTP.

Options:
  --port <n>          Port to listen on (default 4010; 0 picks a free one)
  --host <addr>       Address to bind (default 127.0.0.1, local only)
  --public-url <url>  The URL clients reach the server at, when it differs from the address they send to
                      (a proxy that rewrites Host, TLS in front): the URLs answers hand out (upload URLs,
                      pages, openapi.json's server) start with it. Default: the address of each request
                      (its Host), which is right behind a port mapping or a container's published port
  --speed <s>         Clock: "realtime" (default), a factor ("60" = a virtual minute per second),
                      or "manual" (time moves only through POST /__mock/clock/advance)
  --start-time <iso>  Virtual time at start (default: now)
  --seed <text>       Seed of every generated ID, key, OTP and address (default inr-payouts)
  --sandbox-key <key> The default account's sandbox API key (pk_sandbox_...; default: from the seed)
  --webhook-secret <s>
                      The default account's webhook signing secret (default: whsec_... from the seed)
  --webhook-url <url> Where the account's webhooks are POSTed
  --state-file <path> Keep the state in this SQLite file: loaded at start if present, every change
                      committed before its answer (docs/mock-server.md, "The state file")
  --chaos <seed>[,rate=0.2][,kinds=5xx+429+latency+drop+drop-after-commit][,latency=2000][,method=POST]
                      Seeded faults on API requests; the same seed replays them (docs/chaos-and-the-ledger.md)
  --profile <p>       "default", or "strict": answer exactly what the spec shows, none of the mock's own
                      additions (docs/mock-only.md), to prove a client does not depend on them
  --replay <file>     Rebuild the run a replay bundle recorded (POST /__mock/bundle, mock.bundle()), then
                      serve it on a manual clock: its state, journal and webhook bodies as they were. Sends no
                      webhooks. Takes its seed, start time and account from the bundle. Until its last
                      step has run, every request is answered 503 (REPLAY_IN_PROGRESS).
  --strict-replay     With --replay: stop with an error (exit 1) when the replay diverges from its
                      recording (a request answered with another status or body, another webhook)
  --recorder-budget <MB>
                      Most megabytes (10^6 bytes) the replay recording keeps (default 16.8, 16 MiB):
                      past it the oldest steps go and a bundle says where its window starts
  --journal-budget <MB>
                      Most megabytes the journal keeps (default 16.8, 16 MiB): past it, the oldest entries go
  --help              Show this help

Stops on SIGINT, SIGTERM or SIGHUP, and when what launched it ends (npx or npm and its shell, a harness);
started from your own shell (nohup ... &), it outlives that shell.
Test helpers: GET /__mock lists them. The guide: docs/mock-server.md in this package
(node_modules/inr-payouts/docs/mock-server.md), or https://github.com/inr-payouts/inr-payouts/blob/main/docs/mock-server.md`;

function fail(message: string): never {
  throw new Error(`${message}\n\n${USAGE}`);
}

/** What `read` returns; its error, with the usage text, when it throws. */
function orFail<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    return fail(describeError(error));
  }
}

/** The options `parseArgs` reads, with their defaults. */
const OPTIONS = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  'public-url': { type: 'string' },
  speed: { type: 'string' },
  profile: { type: 'string' },
  'start-time': { type: 'string' },
  seed: { type: 'string' },
  'sandbox-key': { type: 'string' },
  'webhook-secret': { type: 'string' },
  'webhook-url': { type: 'string' },
  'state-file': { type: 'string' },
  chaos: { type: 'string' },
  replay: { type: 'string' },
  'strict-replay': { type: 'boolean', default: false },
  'recorder-budget': { type: 'string' },
  'journal-budget': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** Parses and checks the arguments; throws with the usage text on a bad one. */
export function parseCli(argv: string[]) {
  const { values } = orFail(() => parseArgs({ args: argv, options: OPTIONS }));
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be 0 to 65535, got ${values.port}`);
  const replay = values.replay;
  if (replay !== undefined) {
    // The bundle fixes the run: an option that would change it is refused rather than quietly ignored.
    const clashing = (
      ['seed', 'start-time', 'sandbox-key', 'webhook-secret', 'webhook-url', 'state-file', 'chaos'] as const
    ).filter((name) => values[name] !== undefined);
    if (clashing.length) fail(`--replay takes the run from the bundle: drop --${clashing.join(', --')}`);
  }
  if (values['strict-replay'] && replay === undefined) fail('--strict-replay goes with --replay <file>');
  // A replay stops where the recording did: its clock moves only when told.
  const speedText = values.speed ?? (replay === undefined ? 'realtime' : 'manual');
  const speed =
    speedText === 'realtime' ? 1 : speedText === 'manual' ? ('manual' as const) : Number(speedText);
  if (speed !== 'manual' && !(Number.isFinite(speed) && speed > 0)) {
    fail(`--speed must be realtime, manual or a positive factor, got ${speedText}`);
  }
  if (values['start-time'] !== undefined && !Number.isFinite(Date.parse(values['start-time']))) {
    fail(`--start-time must be an ISO 8601 time, got ${values['start-time']}`);
  }
  const publicUrl = values['public-url'] === undefined ? undefined : parsePublicUrl(values['public-url']);
  const webhookUrl = values['webhook-url'];
  if (webhookUrl !== undefined && !URL.canParse(webhookUrl))
    fail(`--webhook-url is not a URL: ${webhookUrl}`);
  const sandboxKey = values['sandbox-key'];
  // A key a client would refuse (spec 5: a sandbox key begins pk_sandbox_) is refused here, before any client meets it.
  if (sandboxKey !== undefined && !/^pk_sandbox_[\x21-\x7e]+$/.test(sandboxKey))
    fail(`--sandbox-key must be pk_sandbox_ and more printable ASCII, without spaces; got ${sandboxKey}`);
  const webhookSecret = values['webhook-secret'];
  if (webhookSecret !== undefined && !/^[\x21-\x7e]+$/.test(webhookSecret))
    fail('--webhook-secret must be one word of printable ASCII (no spaces, quotes left in, or line ends)');
  const chaos = orFail(() => (values.chaos === undefined ? undefined : parseChaosFlag(values.chaos)));
  const budgets: MockBudgets = {};
  for (const [flag, name] of [
    ['recorder-budget', 'recordingBytes'],
    ['journal-budget', 'journalBytes'],
  ] as const) {
    const text = values[flag];
    if (text === undefined) continue;
    const mb = Number(text);
    if (!(Number.isFinite(mb) && mb >= 0.1))
      fail(`--${flag} must be a number of megabytes of at least 0.1, got ${text}`);
    budgets[name] = Math.round(mb * 1_000_000);
  }
  const profile = MOCK_PROFILES.find((p) => p === values.profile);
  if (values.profile !== undefined && !profile)
    fail(`--profile must be ${MOCK_PROFILES.join(' or ')}, got ${values.profile}`);
  return {
    budgets,
    profile,
    chaos,
    port,
    host: values.host,
    publicUrl,
    speed,
    startTime: values['start-time'],
    seed: values.seed,
    sandboxKey,
    webhookSecret,
    webhookUrl,
    stateFile: values['state-file'],
    replay,
    strictReplay: values['strict-replay'],
    help: values.help,
  };
}

/**
 * `--public-url` as the URLs handed out start with it: an absolute http or https URL with no query, fragment or
 * credentials (a base, not a page), without its trailing slash.
 */
function parsePublicUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    fail(
      `--public-url must be an absolute http or https URL without a query, fragment or credentials, such as https://mock.example.test or http://localhost:8080; got ${text}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Parsed command-line options. */
type CliOptions = ReturnType<typeof parseCli>;

/** Reads and checks a replay bundle file; throws naming the file and what is wrong with it. */
export function readBundleFile(file: string): MockBundle {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--replay: cannot read ${file}: ${describeError(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--replay: ${file} is not JSON: save the whole answer of POST /__mock/bundle (its data)`);
  }
  // The server's own answer, `{ success, data }`, is taken as it was saved.
  if (typeof value === 'object' && value !== null && 'data' in value && 'success' in value)
    value = value.data;
  try {
    return replayable(parseBundle(value));
  } catch (error) {
    throw new Error(`--replay: ${file}: ${describeError(error)}`);
  }
}

/**
 * Refuses a loaded state file whose default account has another key or secret than the options fix: the other
 * services of a compose file were given those, and would meet a 401 or a signature that never verifies.
 */
function keepsFixedAccount(loaded: StateFile, file: string, options: CliOptions): void {
  if (!loaded.state) return;
  const account = loaded.state.accounts.byId[loaded.state.accounts.defaultId];
  const differs = [
    options.sandboxKey !== undefined && account?.keys.sandbox !== options.sandboxKey ? '--sandbox-key' : '',
    options.webhookSecret !== undefined && account?.webhookSecret !== options.webhookSecret
      ? '--webhook-secret'
      : '',
  ].filter(Boolean);
  if (differs.length === 0) return;
  loaded.close();
  throw new Error(
    `${differs.join(' and ')}: the state file ${file} holds an account with another ${differs.length > 1 ? 'key and secret' : differs[0] === '--sandbox-key' ? 'sandbox key' : 'webhook secret'} (the file keeps the account it was made with). Give the values it was made with, or start on a new file (remove this one, or the container's volume) to use these.`,
  );
}

/** Runs the server until SIGINT, SIGTERM or SIGHUP, or until what launched it ends. */
export async function runCli(argv: string[]): Promise<number | undefined> {
  if (argv[0] === 'check-receiver') {
    await runCheckReceiver(argv.slice(1));
    return undefined;
  }
  // The drift check's exit status tells a difference (1) from a run that could not compare (2).
  if (argv[0] === 'conformance') return runConformanceCli(argv.slice(1));
  const options = parseCli(argv);
  if (options.help) {
    console.log(USAGE);
    return undefined;
  }
  // Read and checked before the port opens, like a state file.
  const bundle = options.replay === undefined ? undefined : readBundleFile(options.replay);
  // Read and checked before the port opens: a bad file stops the start, and no request meets a half state.
  const stateFile = options.stateFile ? openStateFile(options.stateFile) : undefined;
  if (stateFile && options.stateFile) keepsFixedAccount(stateFile, options.stateFile, options);
  const loaded = stateFile?.state !== undefined;
  const running = await startMockServer({
    port: options.port,
    host: options.host,
    publicUrl: options.publicUrl,
    // A real-time clock starts at the wall clock, so webhook signatures pass receivers' 300 s tolerance.
    service: {
      ...(bundle ? { replay: bundle } : { seed: options.seed, startTime: options.startTime ?? Date.now() }),
      budgets: options.budgets,
      profile: options.profile,
      // The service's own options, so a reset (POST /__mock/reset) makes them again.
      chaos: options.chaos,
      account: {
        ...(options.sandboxKey === undefined ? {} : { sandboxKey: options.sandboxKey }),
        ...(options.webhookSecret === undefined ? {} : { webhookSecret: options.webhookSecret }),
        ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl }),
      },
    },
    stateFile,
  });
  const { service } = running;
  const replayed = await service.replayed;
  if (replayed && replayed.diverged.length > 0) {
    const report = `--replay: the replay of ${options.replay} diverged from its recording:\n  ${replayed.diverged.join('\n  ')}`;
    if (options.strictReplay) {
      await running.close();
      throw new Error(`${report}\nStopped (--strict-replay): the state served would not be the recording's.`);
    }
    console.warn(`warning: ${report}`);
  }
  const behind = Date.now() - service.clock.now();
  // At real speed, virtual time is wall time: the time the sandbox was down has passed (sessions expired...).
  if (loaded && options.speed === 1 && !options.startTime && behind > 0) await service.clock.advance(behind);
  // A loaded state file holds the account and chaos it was saved with: what this start names replaces them.
  if (loaded && options.webhookUrl) service.helpers.accounts.update({ webhookUrl: options.webhookUrl });
  if (loaded && options.chaos) service.helpers.faults.chaos(options.chaos);
  if (options.speed !== 'manual') service.clock.startRealtime({ speed: options.speed });

  const speed =
    options.speed === 'manual' ? 'manual' : options.speed === 1 ? 'real time' : `${options.speed}x`;
  console.log(`inr-payouts mock listening on ${running.url}`);
  console.log(`  sandbox API key: ${service.sandboxKey}`);
  console.log(`  webhook secret:  ${service.webhookSecret}`);
  console.log(`  clock:           ${service.clock.nowIso()} (${speed})`);
  if (options.speed === 1) console.log(`  speed:           ${realTimeHint(service)}`);
  if (options.webhookUrl) console.log(`  webhooks to:     ${options.webhookUrl}`);
  if (options.chaos)
    console.log(`  chaos:           seed ${options.chaos.seed} (GET /__mock/faults/chaosLog)`);
  if (options.stateFile)
    console.log(`  state file:      ${options.stateFile} (${loaded ? 'loaded' : 'new'})`);
  if (replayed) {
    console.log(
      `  replayed:        ${replayed.steps} steps of ${options.replay}, recorded at ${service.baseUrl}${replayed.diverged.length ? ` (diverged at ${replayed.diverged.length} points, above)` : ''}`,
    );
  }
  if (options.publicUrl) console.log(`  public URL:      ${options.publicUrl}`);
  const reached = options.publicUrl ?? running.url;
  console.log(`  inspector:       ${reached}${INSPECTOR_PATH}`);
  console.log(`  test helpers:    ${reached}/__mock`);
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
      running
        .close()
        .then(() => console.log(`inr-payouts mock stopped (${reason})`))
        .catch((error: unknown) => console.error('inr-payouts mock: error while stopping:', error))
        .finally(resolve);
    };
    const watching = watchProcesses(launcherPids(), (pid) =>
      stop(`process ${pid}, which launched it, ended`),
    );
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  });
  return undefined;
}
