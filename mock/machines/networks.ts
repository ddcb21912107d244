/**
 * Per-network confirmation rules of the simulation: the package's published table (docs/assumptions.md), so the
 * mock confirms deposits in the time the client's `waitForAttribution` allows for.
 */
export {
  type ConfirmationRule,
  confirmationMs,
  NETWORK_CONFIRMATIONS,
} from '../../src/schemas/confirmations.js';
