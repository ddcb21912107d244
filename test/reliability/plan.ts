/**
 * The seeded fault plan of the fault-injection test: for each logical create, which client path it takes and
 * which faults are injected as it starts. Drawn with fast-check from one seed so a failing run reproduces.
 */
import fc from 'fast-check';

/** One fault, on the create (POST) or on the lookup by partnerReference (GET). */
export type Fault =
  | { on: 'create' | 'read'; kind: 'drop' | 'drop-after-commit' | 'latency' }
  | { on: 'create' | 'read'; kind: 'error'; status: number; times: number };

/** One logical create of the plan. */
export interface LogicalCreate {
  index: number;
  via: 'createWithRecovery' | 'create';
  /**
   * Whether it carries a partnerReference. `createWithRecovery` always does; a plain create without one relies
   * on its Idempotency-Key alone, so the mock's refusal of a second partnerReference cannot hide a duplicate.
   */
  withReference: boolean;
  amount: string;
  faults: Fault[];
}

const createFault: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ on: 'create', kind: 'drop-after-commit' }),
  fc.constant<Fault>({ on: 'create', kind: 'drop' }),
  fc.constant<Fault>({ on: 'create', kind: 'latency' }),
  fc.record({
    on: fc.constant('create' as const),
    kind: fc.constant('error' as const),
    status: fc.constantFrom(500, 502, 503, 504),
    times: fc.integer({ min: 1, max: 2 }),
  }),
  // A 429 burst: several answers in a row refused.
  fc.record({
    on: fc.constant('create' as const),
    kind: fc.constant('error' as const),
    status: fc.constant(429),
    times: fc.integer({ min: 1, max: 3 }),
  }),
);

const readFault: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ on: 'read', kind: 'drop' }),
  fc.record({
    on: fc.constant('read' as const),
    kind: fc.constant('error' as const),
    status: fc.constantFrom(503, 429),
    times: fc.constant(1),
  }),
);

const logicalCreate = fc.record({
  via: fc.constantFrom<LogicalCreate['via']>('createWithRecovery', 'create'),
  plainWithReference: fc.boolean(),
  amount: fc.integer({ min: 10, max: 5_000 }).map(String),
  // About half the creates meet no fault at all.
  faults: fc.oneof(
    fc.constant<Fault[]>([]),
    // One faulted create in ten also has its lookup by partnerReference fail.
    fc
      .tuple(fc.array(createFault, { minLength: 1, maxLength: 2 }), fc.nat(9), readFault)
      .map(([create, dice, read]) => (dice === 0 ? [...create, read] : create)),
  ),
});

/**
 * `count` logical creates drawn from `seed`.
 * @example
 * const plan = faultPlan(1000, 42);
 */
export function faultPlan(count: number, seed: number): LogicalCreate[] {
  return fc
    .sample(logicalCreate, { seed, numRuns: count })
    .map(({ plainWithReference, ...create }, index) => ({
      index,
      ...create,
      withReference: create.via === 'createWithRecovery' || plainWithReference,
    }));
}
