/** The `inr-payouts-mock` command (see `--help` and docs/mock-server.md). */
import { runCli } from '../server/cli.js';

runCli(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
