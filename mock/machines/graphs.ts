/**
 * Every state machine of the mock as a graph to draw: its states, where it starts, where it ends, and the rows of
 * the transition table the machine itself runs. The diagrams in docs/diagrams/ are rendered from these
 * (scripts/docs/diagrams.ts), and a page that shows a machine can read them the same way.
 */
import { DIGILOCKER_TRANSITIONS } from './digilocker-session.js';
import { FACE_TRANSITIONS } from './face-session.js';
import { KYC_AGGREGATE_TRANSITIONS } from './kyc-aggregate.js';
import { TRANSACTION_TRANSITIONS } from './transaction.js';
import type { Transition } from './transition-table.js';
import { DELIVERY_TRANSITIONS } from './webhook-delivery.js';

/** A machine to draw: `start` states are entered on creation, `final` states have no way out. */
export interface MachineGraph {
  /** The diagram's file name, without `.svg`. */
  id: string;
  title: string;
  /** What creates the thing, drawn as the arrow into each start state. */
  created: string;
  start: readonly string[];
  states: readonly string[];
  final: readonly string[];
  transitions: readonly Transition<string, string>[];
  /** Events in plain words for the picture (the table keeps the code's names). */
  eventLabels: Readonly<Record<string, string>>;
}

const TRANSACTION_EVENTS = {
  'deposit.seen': 'deposit seen on chain',
  'deposit.block': 'confirmation',
  'payout.start': 'payout submitted',
  'payout.complete': 'bank accepts',
  'payout.fail': 'bank rejects',
  'funds.await': 'payout settled',
  'quote.expire': 'quote expires unpaid',
  'funding.expire': '24 h funding window ends',
};

/** States in the order they are met, then the rest of the table's states. */
function statesOf(first: readonly string[], transitions: readonly Transition<string, string>[]): string[] {
  const all = new Set(first);
  for (const row of transitions) for (const state of [...row.from, row.to]) all.add(state);
  return [...all];
}

/** A machine's graph; `order` lists the states met first (default: the start states). */
function graph(input: Omit<MachineGraph, 'states' | 'final'> & { order?: readonly string[] }): MachineGraph {
  const { order = input.start, ...rest } = input;
  const states = statesOf(order, input.transitions);
  const leaving = new Set(input.transitions.flatMap((row) => row.from.filter((from) => from !== row.to)));
  return { ...rest, states, final: states.filter((s) => !leaving.has(s)) };
}

/** The mock's state machines, in the order the guides present them. */
export const MACHINE_GRAPHS: readonly MachineGraph[] = [
  graph({
    id: 'transaction-standard',
    title: 'Standard transaction',
    created: 'create',
    start: ['created'],
    order: ['created', 'deposit_pending', 'deposit_detected', 'deposit_confirmed', 'payout_processing'],
    transitions: TRANSACTION_TRANSITIONS.standard,
    eventLabels: TRANSACTION_EVENTS,
  }),
  graph({
    id: 'transaction-prefunded',
    title: 'Prefunded transaction',
    created: 'create (payout starts at once)',
    start: ['payout_processing'],
    order: ['payout_processing', 'payout_completed', 'awaiting_funds'],
    transitions: TRANSACTION_TRANSITIONS.prefunded,
    eventLabels: TRANSACTION_EVENTS,
  }),
  graph({
    id: 'kyc-aggregate',
    title: 'KYC aggregate status',
    created: 'user created',
    start: ['pending'],
    order: ['pending', 'in_progress', 'verified', 'rejected'],
    transitions: KYC_AGGREGATE_TRANSITIONS,
    eventLabels: {
      recompute: 'a step completes',
      refresh: 'POST /kyc/refresh',
      pep_declared: 'declaration with isPep: true',
    },
  }),
  graph({
    id: 'digilocker-session',
    title: 'Document-locker session',
    created: 'digilocker/init',
    start: ['PENDING'],
    transitions: DIGILOCKER_TRANSITIONS,
    eventLabels: { approve: 'user gives consent', deny: 'user cancels', expire: '600 s without an answer' },
  }),
  graph({
    id: 'face-session',
    title: 'Face liveness session',
    created: 'face/init',
    start: ['PENDING'],
    transitions: FACE_TRANSITIONS,
    eventLabels: { checked: 'check runs', expire: '600 s without a check' },
  }),
  graph({
    id: 'webhook-delivery',
    title: 'Webhook delivery',
    created: 'event emitted',
    start: ['pending'],
    order: ['pending', 'delivered', 'failed'],
    transitions: DELIVERY_TRANSITIONS,
    eventLabels: {
      'automatic attempt': 'attempt',
      'manual retry': 'manual retry',
    },
  }),
];
