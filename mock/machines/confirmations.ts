/**
 * A deposit's confirmations between its first and its last block, as pure functions of the record and the
 * clock. Only the first block (`deposit_detected`) and the last (`deposit_confirmed`) change the status or
 * send an event, so only they run a timer and store a count; the blocks in between are counted on a read,
 * one every `blockMs` from `deposit.detectedAt`. A read answers what one timer per block stored before, and a
 * deposit costs two timers instead of one per block (128 on polygon).
 */
import { isoAt } from '../engine/timers.js';
import type { TransactionRecord } from '../state/transactions.js';
import { NETWORK_CONFIRMATIONS } from './networks.js';

/** Blocks mined from the first one, at `first`, to `now`, the first included. */
function minedFrom(first: number, now: number, blockMs: number): number {
  return 1 + Math.floor((now - first) / blockMs);
}

/** When the first block came, for a deposit whose `confirmations`-th block comes at `now`. */
export function firstBlockAt(txn: TransactionRecord, confirmations: number, now: number): number {
  return now - (confirmations - 1) * NETWORK_CONFIRMATIONS[txn.network].blockMs;
}

/** Epoch ms of the first confirmation, when the deposit has one and is not yet confirmed. */
function detectedMs(txn: TransactionRecord): number | undefined {
  const { deposit } = txn;
  return deposit.status === 'detected' && deposit.detectedAt !== undefined
    ? Date.parse(deposit.detectedAt)
    : undefined;
}

/**
 * Blocks mined over the deposit by `now`, up to the required count: what the block timer stores when it runs.
 * A deposit still `pending` gains the one block its timer was set for (a `detected` one always has
 * `detectedAt`: machines/transaction.ts sets both at once).
 */
export function blocksMinedBy(txn: TransactionRecord, now: number): number {
  const { deposit } = txn;
  const first = detectedMs(txn);
  if (first === undefined) return (deposit.confirmations ?? 0) + 1;
  const mined = minedFrom(first, now, NETWORK_CONFIRMATIONS[txn.network].blockMs);
  return Math.min(deposit.requiredConfirmations, Math.max(deposit.confirmations ?? 0, mined));
}

/**
 * When the block timer of a detected deposit runs next: at its last block, the one that confirms it
 * (undefined while the deposit is not detected).
 */
export function lastBlockAt(txn: TransactionRecord): number | undefined {
  const first = detectedMs(txn);
  if (first === undefined) return undefined;
  return first + (txn.deposit.requiredConfirmations - 1) * NETWORK_CONFIRMATIONS[txn.network].blockMs;
}

/**
 * The transaction as a read at `now` sees it: the blocks mined since the last stored confirmation counted in
 * (each one a confirmation and the record's `updatedAt`, as when every block ran a timer). The last block is
 * left to its timer, which confirms the deposit. The stored record is not changed.
 */
export function transactionAt(txn: TransactionRecord, now: number): TransactionRecord {
  const first = detectedMs(txn);
  if (first === undefined) return txn;
  const { deposit } = txn;
  const { blockMs } = NETWORK_CONFIRMATIONS[txn.network];
  const mined = Math.min(deposit.requiredConfirmations - 1, minedFrom(first, now, blockMs));
  if (mined <= (deposit.confirmations ?? 0)) return txn;
  const minedAt = first + (mined - 1) * blockMs;
  const updatedAt = minedAt > Date.parse(txn.updatedAt) ? isoAt(minedAt) : txn.updatedAt;
  return { ...txn, updatedAt, deposit: { ...deposit, confirmations: mined } };
}
