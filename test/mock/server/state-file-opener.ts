/**
 * A process that opens state files as the bin does, for tests of what two processes or another user meet:
 * `tsx state-file-opener.ts`. It prints `ready <its process ID>`, then for each line `open <file>` opens the file
 * (read, then kept, a change saved) and prints `open <the virtual time saved>` or `refused <message>`; `close`
 * closes it and prints `closed`. It exits when stdin ends.
 */
import { createInterface } from 'node:readline';
import { resolveOptions } from '../../../mock/engine/options.js';
import { initialState } from '../../../mock/operations/accounts.js';
import { openStateFile, type StateFile } from '../../../mock/server/persistence.js';
import type { MockState } from '../../../mock/state/mock-state.js';

let held: StateFile | undefined;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line === 'close') {
    held?.close();
    held = undefined;
    console.log('closed');
    return;
  }
  const file = line.slice('open '.length);
  try {
    const opened = openStateFile(file);
    // The state alone (not the whole simulation, whose loading takes seconds): what the file holds is the point.
    const service = {
      state: initialState(resolveOptions({ seed: 'opener' })),
      adopt(state: MockState) {
        service.state = state;
      },
    };
    opened.keep(service);
    held = opened;
    service.state.clock.now += 1;
    held.save();
    console.log(`open ${service.state.clock.now}`);
  } catch (error) {
    console.log(`refused ${error instanceof Error ? error.message : String(error)}`);
  }
});
lines.once('close', () => held?.close());
console.log(`ready ${process.pid}`);
