/** The `inr-payouts-mock` command (see `--help` and docs/mock-server.md). */
import { describeError } from '../../src/shared/describe-error.js';
import { runCli } from '../server/cli.js';

/** An error's own exit status (`conformance` tells "could not run", 2, from "differs", 1), else 1. */
function exitCodeOf(error: unknown): number {
  const code =
    typeof error === 'object' && error !== null && 'exitCode' in error ? error.exitCode : undefined;
  return typeof code === 'number' ? code : 1;
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code ?? 0),
  (error: unknown) => {
    console.error(describeError(error));
    process.exit(exitCodeOf(error));
  },
);
