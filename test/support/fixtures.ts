// Answers in the spec's shapes, shared by the resource tests.
export const TS = '2024-01-15T10:30:00Z';

export const account = {
  id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  name: 'Acme Remit',
  email: 'ops@acme.test',
  environment: 'sandbox',
  status: 'active',
  apiKeyPrefix: 'pk_sandbox_ab',
  webhookUrl: 'https://acme.test/hooks',
  volume: { monthlyUsd: 12500.5, totalUsd: 98000 },
  limits: { rateLimit: 100 },
};

export const createQuote = {
  exchangeRate: 83.25,
  feePercent: 0.01,
  feeInr: '83.25',
  grossInr: '8325.00',
  netInr: '8241.75',
};

export const created = {
  transactionId: 'txn_1',
  status: 'created',
  partnerReference: 'order-42',
  depositAddress: '0xabc0000000000000000000000000000000000001',
  depositNetwork: 'polygon',
  depositAsset: 'USDC',
  expectedAmount: '100.00',
  quote: createQuote,
  expiresAt: '2024-01-15T11:00:00Z',
};

export const allocations = [
  { dealId: 'deal_1', dealNumber: 'D-0001', rate: '83.00', inrAmount: '4150.00', usdtAmount: '50' },
  { dealId: 'deal_2', dealNumber: 'D-0002', rate: '84.00', inrAmount: '4200.00', usdtAmount: '50' },
];

export function transaction(status: string, payout?: Record<string, unknown>) {
  return {
    transaction: { id: 'txn_1', status, partnerReference: 'order-42', createdAt: TS },
    deposit: {
      network: 'polygon',
      asset: 'USDT',
      address: '0xabc0000000000000000000000000000000000001',
      expectedAmount: '100.00',
      receivedAmount: '100.00',
      txHash: '0xhash',
      status: 'confirmed',
      confirmations: 64,
      confirmedAt: TS,
    },
    quote: { exchangeRate: 83.5, grossInr: '8350.00', netInr: '8350.00' },
    ...(payout ? { payout } : {}),
  };
}

export const completedPayout = {
  rail: 'imps',
  amountInr: '8350.00',
  status: 'completed',
  utr: 'UTR0001',
  completedAt: TS,
  rate: '83.50',
  usdtEquivalent: '100',
  allocations,
};

export const webhookEvent = (id: string, status = 'failed') => ({
  id,
  eventType: 'transaction.payout_completed',
  status,
  attempts: 5,
  transactionId: 'txn_1',
  createdAt: TS,
});
