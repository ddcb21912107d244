/**
 * The probe cases of a run: for each operation of the published contract that takes a body or a query, a valid
 * base request (`bases.ts`) with one field changed at each of its boundaries (`derive.ts`). Deterministic from
 * a seed: when an endpoint has more cases than the cap, the seed chooses which (in their order); the same seed
 * gives the same cases in every run.
 */
import { colonPath, PATH_PARAM } from '../../../src/endpoints/index.js';
import { random, seedToInt } from '../../engine/ids.js';
import { accepts, loadContractCheck } from '../contract-problems.js';
import type { Tier } from '../types.js';
import { type BaseContext, baseOf, NO_USER } from './bases.js';
import { type RequestContract, requestContracts, type SchemaNode } from './contract.js';
import { conditionalChanges, type FieldChange, fieldChanges } from './derive.js';

/** One request a probe sends to both sides: a valid base with one rule's boundary applied. */
export interface ProbeCase {
  /** `kyc.bank.verify`. */
  operationId: string;
  /** `POST /v2/users/:userId/kyc/bank/verify`, as the coverage table names it. */
  endpoint: string;
  /** What it probes: `accountNumber, 8 digits`. */
  rule: string;
  tier: Tier;
  /** The request, made on one side (its fresh mobile numbers and names). */
  request(c: BaseContext): ProbeRequest;
}

/** A probe's request, before it is sent. */
export interface ProbeRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** The path with its parameters filled in, without the query. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** How many cases and of which seed. */
export interface ProbeSettings {
  /** Chooses the cases of an endpoint with more than `cap` (default 1). */
  seed: number | string;
  /** The most cases sent per endpoint (default 24). */
  cap: number;
}

/** The default settings: seed 1, at most 24 cases per endpoint. */
export const DEFAULT_PROBES: ProbeSettings = { seed: 1, cap: 24 };

/**
 * Operations whose valid cases change the target in a way a run cannot undo: sent only in the `mock-helpers`
 * tier (a mock target), their refusals in `creates`.
 */
const VALID_ONLY_ON_A_MOCK: Record<string, string> = {
  // The developer fee cannot be read back, so a sandbox's own setting could not be restored.
  'account.updateDeveloperFee': 'the developer fee cannot be read back and restored',
};

/** A sample side: fixed values, to tell a change that leaves the request as it was. */
const SAMPLE: BaseContext = { mobile: () => '9876543210', name: (what) => `conf-sample-${what}` };

const pathOf = (path: string) =>
  path.replace(PATH_PARAM, (_, name: string) => (name === 'userId' ? NO_USER : `${name}_conformance_none`));

/** Every boundary case of an operation's fields: its body's, or else its query's. */
function changesOf({ body, query }: RequestContract): FieldChange[] {
  if (!body) return query.flatMap((p) => fieldChanges(p.name, p.schema, p.required, true));
  const properties = (body.properties ?? {}) as Record<string, SchemaNode>;
  const required = Array.isArray(body.required) ? body.required.map(String) : [];
  return [
    ...Object.entries(properties).flatMap(([name, node]) =>
      fieldChanges(name, node, required.includes(name)),
    ),
    ...conditionalChanges(body),
  ];
}

/** `count` of `items` chosen by `seed`, in their order. */
function choose<T>(items: readonly T[], count: number, seed: number | string): T[] {
  if (items.length <= count) return [...items];
  const state = { rng: seedToInt(seed) };
  const ranked = items.map((item, i) => ({ item, i, key: random(state) }));
  const kept = new Set(
    [...ranked]
      .sort((a, b) => a.key - b.key)
      .slice(0, count)
      .map((r) => r.i),
  );
  return ranked.filter((r) => kept.has(r.i)).map((r) => r.item);
}

/** Every operation's cases, capped per endpoint; `contracts` defaults to the published document's. */
export async function probeCases(
  settings: ProbeSettings = DEFAULT_PROBES,
  contracts: readonly RequestContract[] = requestContracts(),
): Promise<ProbeCase[]> {
  await loadContractCheck();
  const out: ProbeCase[] = [];
  for (const contract of contracts) {
    const sample = baseOf(contract.operationId, SAMPLE);
    if (!sample) continue;
    const changes = changesOf(contract);
    const seen = new Set([JSON.stringify(sample)]);
    const distinct = changes.filter((change) => {
      const changed = structuredClone(sample);
      change.apply(changed);
      const key = JSON.stringify(changed);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const endpoint = `${contract.method} ${colonPath(contract.path)}`;
    const chosen = choose(distinct, settings.cap, `${settings.seed}:${contract.operationId}`);
    for (const change of chosen) {
      const tier = tierOf(contract, change, sample);
      out.push({
        operationId: contract.operationId,
        endpoint,
        rule: change.rule,
        tier,
        request(c) {
          const record = baseOf(contract.operationId, c) ?? {};
          change.apply(record);
          const path = pathOf(contract.path);
          // A query's values as the URL carries them.
          return contract.body
            ? { method: contract.method, path, body: record }
            : {
                method: contract.method,
                path,
                query: Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)])),
              };
        },
      });
    }
  }
  return out;
}

function tierOf(contract: RequestContract, change: FieldChange, sample: Record<string, unknown>): Tier {
  if (contract.method === 'GET') return 'read-only';
  if (!(contract.operationId in VALID_ONLY_ON_A_MOCK) || !contract.body) return 'creates';
  const changed = structuredClone(sample);
  change.apply(changed);
  return accepts(contract.body, changed) ? 'mock-helpers' : 'creates';
}

/** Why an operation's valid cases run only on a mock, or undefined. */
export const validOnlyOnAMock = (operationId: string): string | undefined =>
  VALID_ONLY_ON_A_MOCK[operationId];
