import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../mock/conformance/types.js';
import { runConformance } from '../../../mock/index.js';
import { standaloneServer } from '../server/support.js';
import { CLASSES, EVENT_ID, perScenario, RATE, RENAMED, STATUS, UTR } from './classes.js';
import type { Plant } from './drifted-sandbox.js';
import { startedPerTest } from './per-test.js';

// Each class of drift a real sandbox shows (classes.ts), planted one at a time by a proxy in front of the
// standalone server (test/mock/conformance/drifted-sandbox.ts) in the default profile with its helpers: each is
// named exactly once in each scenario it appears in, and nothing else is reported. The same classes under
// `--guided`, in the strict profile with the helpers hidden as a sandbox hides them: guided.test.ts.

const standard = standaloneServer();
const started = startedPerTest();

describe('each class planted on the default-profile server, its helpers visible', () => {
  async function check(plant: Plant, only: string[]): Promise<ConformanceReport> {
    const sandbox = await started.sandbox(plant, standard);
    const report = await runConformance({ baseUrl: sandbox.url, apiKey: standard.key, only });
    expect(report.results.filter((r) => r.outcome === 'skipped')).toEqual([]);
    return report;
  }
  const FLOWS = ['transactions.standard-flow', 'transactions.prefunded-flow'];

  it("the mock's own field left out: no difference, exit 0", async () => {
    const report = await check(CLASSES.mockOnlyMissing, FLOWS);
    expect(perScenario(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.mockOwn).toEqual([expect.stringMatching(/^`transaction\.updatedAt` in GET /)]);
  }, 60_000);

  it.each([
    {
      name: 'a drifted field type: named once where it is sent, and the flow still runs to its end',
      plant: CLASSES.driftedType,
      // The prefunded flow's reads carry no rate (its payout is not pool-attributed): nothing to name there.
      only: FLOWS,
      line: RATE,
      // A type changed breaks a partner's code.
      severity: 'breaking',
      exitCode: 1,
    },
    {
      name: 'a status the contract does not list before the deposit: named once, not again in the states',
      plant: CLASSES.unknownStatus,
      only: ['transactions.standard-flow'],
      line: STATUS,
      // The client reads enums as open: a new value breaks nothing, and is for review.
      severity: 'review',
      exitCode: 0,
    },
  ])(
    '$name',
    async ({ plant, only, line, severity, exitCode }) => {
      const report = await check(plant, only);
      expect(perScenario(report)).toEqual([`transactions.standard-flow: ${line}`]);
      expect(report.results.flatMap((r) => r.notCompared ?? [])).toEqual([]);
      expect(report.summary.map((s) => s.severity)).toEqual([severity]);
      expect(report.exitCode).toBe(exitCode);
    },
    60_000,
  );

  it('an optional field left out in one state: named with the state', async () => {
    const report = await check(CLASSES.omittedInState, ['transactions.standard-flow']);
    expect(perScenario(report)).toEqual([`transactions.standard-flow: ${UTR}`]);
  }, 60_000);

  it.each([
    {
      name: 'a nested enum value: named once in each scenario that reads it',
      plant: CLASSES.nestedEnum,
      line: /^kyc\.[\w-]+: GET \/v2\/users\/:userId\/kyc\/digilocker\/status: `status` value: mock one of (?=.*"PENDING")(?=.*"EXPIRED").* \(as the contract lists\), sandbox "IN_REVIEW"$/,
    },
    {
      name: 'a nested enum value inside the KYC status record: named with the field, in each scenario that reads it',
      plant: CLASSES.nestedRecordEnum,
      line: /^kyc\.[\w-]+: GET \/v2\/users\/:userId\/kyc\/status: `digilocker\.status` value: mock one of (?=.*"pending")(?=.*"VERIFIED").* \(as the contract lists\), sandbox "IN_REVIEW"$/,
    },
  ])(
    '$name',
    async ({ plant, line }) => {
      const report = await check(plant, ['kyc.']);
      const texts = perScenario(report);
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text).toMatch(line);
      expect(new Set(texts.map((t) => t.split(':')[0])).size).toBe(texts.length);
    },
    60_000,
  );

  it('a renamed event type: named as such in each webhook scenario that receives it, nothing else', async () => {
    const report = await check(CLASSES.renamedEventType, ['webhooks.order', 'webhooks.every-event']);
    expect(perScenario(report)).toEqual([`webhooks.order: ${RENAMED}`, `webhooks.every-event: ${RENAMED}`]);
    // A handler dispatching on the type never sees it: breaking, unlike a new value in an answer.
    expect(report.summary.map((s) => s.severity)).toEqual(['breaking']);
  }, 60_000);

  it('a missing X-Service-Event-Id header: one line in each scenario that compares headers', async () => {
    const report = await check(CLASSES.missingEventId, ['webhooks.']);
    expect(perScenario(report)).toEqual([
      `webhooks.delivery: ${EVENT_ID}`,
      `webhooks.every-event: ${EVENT_ID}`,
    ]);
  }, 60_000);
});
