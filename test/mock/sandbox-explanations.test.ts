import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Explanation, explainLine } from '../../mock/engine/explain.js';
import type { JournalEntry, JournalTransition } from '../../mock/engine/journal.js';
import { REFUSAL_RULES } from '../../mock/observe/refusals.js';
import { SANDBOX_KYC, SANDBOX_TRANSACTIONS } from '../../mock/sandbox-values.js';
import { serveHelper } from '../../mock/server/helpers-api.js';
import { createMockService } from '../../mock/service.js';
import { CONTRACTS } from '../../src/endpoints/index.js';

const docsUrl = new URL('../../docs/sandbox-values.md', import.meta.url);
type Mock = ReturnType<typeof createMockService>;

const BANK = { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountHolderName: 'Asha Rao' };
const PASSPORT = (text: string) => Buffer.from(`%PDF-1.4\n${text}\n`).toString('base64');

/** A fresh mock with one user (Aadhaar name `Asha Rao` by default), and a way to call the API as its partner. */
function setUp() {
  const mock = createMockService({ seed: 'explanations' });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await mock.dispatch(
      new Request(`${mock.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (!response) throw new Error(`no route for ${method} ${path}`);
    return {
      status: response.status,
      header: response.headers.get('x-mock-explain'),
      body: await response.json(),
    };
  };
  return { mock, call };
}

/** What one sandbox value produced, as the doc's table shows it. */
interface Row {
  value: string;
  where: string;
  explanation: Explanation;
}

/** The request's header line must be exactly the journal's explanation, and the journal must have one. */
async function viaHeader(
  mock: Mock,
  answer: Promise<{ status: number; header: string | null; body: unknown }>,
): Promise<{ where: string; explanation: Explanation }> {
  const { status, header } = await answer;
  const entry = mock.journal.entries({ type: 'request' }).at(-1);
  if (entry?.type !== 'request' || !entry.explanation) throw new Error('the request has no explanation');
  expect(header).toBe(explainLine(entry.explanation));
  expect(entry.explain).toBe(header);
  // Header-safe: one line of visible ASCII.
  expect(header).toMatch(/^[\x20-\x7e]+$/);
  return { where: `${status} answer: header and journal`, explanation: entry.explanation };
}

function isTransition(entry: JournalEntry): entry is JournalTransition {
  return entry.type === 'transition';
}

/** The explained transition of `resource` the run journalled last. */
function viaTransition(mock: Mock, resource: string): { where: string; explanation: Explanation } {
  const entry = mock.journal
    .entries({ type: 'transition' })
    .filter(isTransition)
    .filter((e) => e.resource === resource && e.explanation)
    .at(-1);
  if (!entry?.explanation) throw new Error(`no explained ${resource} transition`);
  return {
    where: `journal: ${entry.resource} ${entry.from} -> ${entry.to}`,
    explanation: entry.explanation,
  };
}

async function transaction(mock: Mock, call: ReturnType<typeof setUp>['call'], amount: string) {
  const { userId } = mock.helpers.users.seedVerified({ mobile: '9876543210', name: 'Asha Rao' });
  const created = await call('POST', '/v2/transactions', { userId, amount, asset: 'USDT', network: 'base' });
  const { transactionId } = (created.body as { data: { transactionId: string } }).data;
  return { userId, transactionId };
}

/** Every sandbox value, driven through the mock; each row is what the mock actually said. */
async function observeAll(): Promise<Row[]> {
  const rows: Row[] = [];
  const kyc = async (
    value: string,
    run: (s: ReturnType<typeof setUp>, userId: string) => Promise<unknown>,
  ) => {
    const s = setUp();
    const user = await s.call('POST', '/v2/users', { mobile: '9876543210', name: 'Asha Rao' });
    const { userId } = (user.body as { data: { userId: string } }).data;
    const answer = run(s, userId) as Promise<{ status: number; header: string | null; body: unknown }>;
    rows.push({ value, ...(await viaHeader(s.mock, answer)) });
  };
  const { bank, upi, pan } = SANDBOX_KYC;
  for (const accountNumber of [bank.pennyDropFails, bank.otherHolder, bank.providerError]) {
    await kyc(`Bank account number \`${accountNumber}\``, ({ call }, userId) =>
      call('POST', `/v2/users/${userId}/kyc/bank/verify`, { ...BANK, accountNumber }),
    );
  }
  await kyc('Bank `accountHolderName` scoring under 70 (`Vikram Singh`)', ({ call }, userId) =>
    call('POST', `/v2/users/${userId}/kyc/bank/verify`, { ...BANK, accountHolderName: 'Vikram Singh' }),
  );
  await kyc(
    "`helpers.kyc.chooseOutcome({ step: 'bank', outcome: 'penny_drop_failed' })`",
    ({ mock, call }, userId) => {
      mock.helpers.kyc.chooseOutcome({ userId, step: 'bank', outcome: 'penny_drop_failed' });
      return call('POST', `/v2/users/${userId}/kyc/bank/verify`, BANK);
    },
  );
  for (const upiId of [upi.invalidVpa, upi.otherHolder, upi.providerError]) {
    await kyc(`UPI ID \`${upiId}\``, ({ call }, userId) =>
      call('POST', `/v2/users/${userId}/kyc/upi/verify`, { upiId }),
    );
  }
  for (const number of [pan.notFound, pan.otherHolder]) {
    await kyc(`PAN \`${number}\``, ({ call }, userId) =>
      call('POST', `/v2/users/${userId}/kyc/pan/verify`, { pan: number }),
    );
  }
  await kyc(`Passport file containing \`${SANDBOX_KYC.unreadablePassportMarker}\``, ({ call }, userId) =>
    call('POST', `/v2/users/${userId}/kyc/passport/verify`, {
      file: PASSPORT(SANDBOX_KYC.unreadablePassportMarker),
    }),
  );
  await kyc(
    `Document-locker \`deviceId: '${SANDBOX_KYC.digilockerUnavailableDeviceId}'\``,
    ({ call }, userId) =>
      call('POST', `/v2/users/${userId}/kyc/digilocker/init`, {
        deviceId: SANDBOX_KYC.digilockerUnavailableDeviceId,
      }),
  );
  await kyc('Declaration with `isPep: true`', ({ call }, userId) =>
    call('POST', `/v2/users/${userId}/kyc/declaration`, {
      occupation: 'business',
      incomeRange: 'above_1cr',
      isPep: true,
      pepDetails: 'Member of a state legislature',
      declarationAccepted: true,
    }),
  );

  // Outcomes decided later on the clock explain themselves in the transition they cause.
  for (const [value, amount, deposit, resource] of [
    [
      `Amount \`${SANDBOX_TRANSACTIONS.payoutFailureAmount}\` USD`,
      SANDBOX_TRANSACTIONS.payoutFailureAmount,
      undefined,
      'transaction',
    ],
    [
      `Amount \`${SANDBOX_TRANSACTIONS.sweepFailureAmount}\` USD`,
      SANDBOX_TRANSACTIONS.sweepFailureAmount,
      undefined,
      'sweep',
    ],
    ["A deposit under 10 USD (`simulateDeposit({ amount: '5' })`)", '100', '5', 'transaction'],
  ] as const) {
    const { mock, call } = setUp();
    const { transactionId } = await transaction(mock, call, amount);
    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId, amount: deposit }));
    await mock.clock.advance('1m');
    rows.push({ value, ...viaTransition(mock, resource) });
  }

  // The default pool pays for attribution; without it the payout goes unattributed, and says so.
  {
    const { mock, call } = setUp();
    mock.helpers.tranches.clear();
    const { transactionId } = await transaction(mock, call, '100');
    await mock.clock.advance(mock.helpers.transactions.simulateDeposit({ transactionId }));
    await mock.clock.advance('1m');
    rows.push({ value: 'An empty pool (`helpers.tranches.clear()`)', ...viaTransition(mock, 'attribution') });
  }
  // A session outcome a helper chose explains itself on the session's transition.
  {
    const { mock, call } = setUp();
    const user = await call('POST', '/v2/users', { mobile: '9876543210', name: 'Asha Rao' });
    const { userId } = (user.body as { data: { userId: string } }).data;
    const face = await call('POST', `/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: 'https://partner.test/face',
    });
    const { sessionId } = (face.body as { data: { sessionId: string } }).data;
    mock.helpers.face.complete({ sessionId, outcome: 'fail' });
    rows.push({
      value: "`helpers.face.complete({ outcome: 'fail' })`",
      ...viaTransition(mock, 'face-session'),
    });
  }

  // A transition a helper asked for and the state refused: the helper's journal entry says why.
  const { mock, call } = setUp();
  const { transactionId } = await transaction(mock, call, '100');
  expect(() => mock.helpers.transactions.completePayout({ transactionId })).toThrow();
  const refused = mock.journal.entries({ type: 'helper' }).at(-1);
  if (refused?.type !== 'helper' || !refused.explanation)
    throw new Error('the refused helper has no explanation');
  rows.push({
    value: '`helpers.transactions.completePayout` before the payout started',
    where: 'journal: helper entry',
    explanation: refused.explanation,
  });
  return rows;
}

/** The doc's table: one row per sandbox value, the explanation as the header line carries it. */
function table(rows: Row[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| Sandbox value | Where it shows | Explanation (`X-Mock-Explain` line) |',
    '| --- | --- | --- |',
    ...rows.map(
      (r) => `| ${cell(r.value)} | ${cell(r.where)} | ${cell(`\`${explainLine(r.explanation)}\``)} |`,
    ),
  ].join('\n');
}

/** Cells of a markdown table, trimmed, so the formatter's padding does not matter. */
function cells(markdown: string): string[][] {
  return markdown
    .trim()
    .split('\n')
    .filter((line) => !/^\|[\s:|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

describe('answers that explain themselves', () => {
  it("docs/sandbox-values.md's explanations are what the mock sends for each sandbox value (UPDATE_DOCS=1 rewrites them)", async () => {
    const rows = await observeAll();
    // Each value names its own rule and a section, and says what would change it.
    for (const row of rows) {
      expect(row.explanation.rule).toMatch(/^(sandbox\.|helper\.|[A-Z_]+$)/);
      expect(row.explanation.section).toMatch(/^\d+(\.\d+)?$/);
      expect(row.explanation.change.length).toBeGreaterThan(5);
    }
    const docs = readFileSync(docsUrl, 'utf8');
    const block = /<!-- explanations:start -->\n([\s\S]*?)<!-- explanations:end -->/;
    const expected = `${table(rows)}\n`;
    if (process.env.UPDATE_DOCS === '1') {
      writeFileSync(
        docsUrl,
        docs.replace(block, `<!-- explanations:start -->\n${expected}<!-- explanations:end -->`),
      );
      return;
    }
    expect(cells(block.exec(docs)?.[1] ?? '')).toEqual(cells(expected));
  }, 60_000);

  it('a sandbox-chosen success keeps the spec body and explains itself in a header', async () => {
    const { mock, call } = setUp();
    const user = await call('POST', '/v2/users', { mobile: '9876543210', name: 'Asha Rao' });
    const { userId } = (user.body as { data: { userId: string } }).data;
    const answer = await call('POST', `/v2/users/${userId}/kyc/upi/verify`, {
      upiId: SANDBOX_KYC.upi.otherHolder,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      data: expect.objectContaining({ verified: false, nameMatchScore: expect.any(Number) }),
    });
    expect(answer.header).toMatch(
      /^sandbox\.upi\.otherHolder: mismatch@upi .* at least 70 needed \(spec 4\.8\)\. Change: /,
    );
    // An ordinary success explains nothing.
    const plain = await call('GET', `/v2/users/${userId}/kyc/status`);
    expect(plain.header).toBeNull();
    const entry = mock.journal.entries({ type: 'request' }).at(-1);
    expect(entry?.type === 'request' && entry.explanation).toBeUndefined();
  });

  it('every refusal names its rule, the route section and a change', async () => {
    const { mock, call } = setUp();
    const missing = await call('GET', '/v2/transactions/txn_missing');
    expect(missing.header).toMatch(/^TRANSACTION_NOT_FOUND: .* \(spec 2\.4\)\. Change: use a transactionId/);
    const entry = mock.journal.entries({ type: 'request' }).at(-1);
    expect(entry).toMatchObject({
      explanation: {
        rule: 'TRANSACTION_NOT_FOUND',
        section: '2.4',
        change: REFUSAL_RULES.TRANSACTION_NOT_FOUND?.change,
      },
    });
  });

  it('a helper refused over HTTP carries the same line as its journal entry', async () => {
    const { mock, call } = setUp();
    const { transactionId } = await transaction(mock, call, '100');
    const path = '/__mock/transactions/completePayout';
    const refused = await serveHelper(
      mock,
      new Request(`${mock.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transactionId }),
      }),
      path,
    );
    expect(refused.status).toBe(409);
    const entry = mock.journal.entries({ type: 'helper' }).at(-1);
    expect(entry).toMatchObject({ name: 'transactions.completePayout', refused: true });
    if (entry?.type !== 'helper' || !entry.explanation) throw new Error('no explanation');
    expect(refused.headers.get('x-mock-explain')).toBe(explainLine(entry.explanation));
    expect(entry.explanation).toMatchObject({ rule: 'TRANSITION_REFUSED', section: '3.1' });
  });

  it('knows what changes every error identifier the OpenAPI document lists', () => {
    const identifiers = new Set(Object.values(CONTRACTS).flatMap((contract) => contract.errors));
    const normalised = [...identifiers].map((id) => id.toUpperCase().replace(/[^A-Z0-9]+/g, '_'));
    expect(normalised.filter((id) => !(id in REFUSAL_RULES))).toEqual([]);
  });

  it('journals the KYC steps, sessions and aggregate of a user as transitions', async () => {
    const { mock, call } = setUp();
    const user = await call('POST', '/v2/users', { mobile: '9876543210', name: 'Asha Rao' });
    const { userId } = (user.body as { data: { userId: string } }).data;
    const init = await call('POST', `/v2/users/${userId}/kyc/digilocker/init`, {});
    const { clientId } = (init.body as { data: { clientId: string } }).data;
    mock.helpers.digilocker.complete({ clientId, outcome: 'approve' });
    const face = await call('POST', `/v2/users/${userId}/kyc/face/init`, {
      redirectUrl: 'https://partner.test/face',
    });
    const { sessionId } = (face.body as { data: { sessionId: string } }).data;
    await mock.clock.advance('11m');
    const arrows = mock.journal
      .entries({ type: 'transition', userId })
      .filter(isTransition)
      .map((e) => `${e.resource} ${e.id} ${e.from}->${e.to} (${e.trigger})`);
    expect(arrows).toEqual([
      `digilocker-session ${clientId} PENDING->VERIFIED (approve)`,
      'kyc-step digilocker unverified->verified (helpers.digilocker.complete)',
      'kyc-step aadhaar unverified->verified (helpers.digilocker.complete)',
      'kyc-step pan unverified->verified (helpers.digilocker.complete)',
      `kyc-aggregate ${userId} pending->in_progress (recompute)`,
      `face-session ${sessionId} PENDING->EXPIRED (expire)`,
    ]);
  });
});
