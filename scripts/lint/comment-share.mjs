// Comments earn their place (CONTRIBUTING, Code): comment lines stay at most 30% of the TypeScript in src/ and in
// mock/, counted among the non-blank lines. A comment line is one whose first non-blank characters are //, /* or
// *. Run by `npm run lint`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LIMIT = 0.3;
const COMMENT = /^\s*(\/\/|\/\*|\*)/;

let failed = false;
for (const folder of ['src', 'mock']) {
  let lines = 0;
  let comments = 0;
  for (const file of readdirSync(folder, { recursive: true }).filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(join(folder, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    lines += text.length;
    comments += text.filter((line) => COMMENT.test(line)).length;
  }
  const share = comments / lines;
  const over = share > LIMIT;
  failed ||= over;
  console.log(
    `${over ? 'FAIL' : 'ok'} ${folder}/: ${comments} comment lines of ${lines} non-blank (${(share * 100).toFixed(1)}%, at most ${LIMIT * 100}%)` +
      (over
        ? ': say less, or say it in code (a name, a type); keep TSDoc on exports and examples on calls'
        : ''),
  );
}
process.exit(failed ? 1 : 0);
