/**
 * The helpers table of `docs/mock-server.md`, rendered from `HELPER_CONTRACT` (through `describeHelpers`), so
 * the docs list every helper with the argument shape the server checks. A test compares the docs to this.
 */
import { isPlainObject } from '../../src/shared/plain-object.js';
import { describeHelpers } from './helpers-api.js';

type JsonSchema = Record<string, unknown>;

/** A JSON Schema as a short shape: `{ "userId", "channel": "mobile" \| "email" }`. */
function shape(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return union.filter(isPlainObject).map(shape).join(' or ');
  if (schema.type === 'array' && isPlainObject(schema.items)) return `[${shape(schema.items)}, ...]`;
  if (schema.type === 'object' && isPlainObject(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    const fields = Object.entries(schema.properties).map(([name, field]) => {
      const inner =
        isPlainObject(field) && (Array.isArray(field.enum) || 'const' in field) ? `: ${shape(field)}` : '';
      return `"${name}"${required.includes(name) ? '' : '?'}${inner}`;
    });
    return `{ ${fields.join(', ')} }`;
  }
  if (schema.type === 'object') return 'an object';
  return typeof schema.type === 'string' ? `a ${schema.type}` : 'any JSON';
}

/** The markdown table: helper path, the JSON object its body takes, what it does. */
export function helperTable(): string {
  const rows = describeHelpers().map((helper) => {
    // Structured shapes read as code; plain words (`a string`) as text.
    const code = (text: string) => (/^[[{"]/.test(text) ? `\`${text}\`` : text);
    const argument = helper.body ? code(shape(helper.body)) : 'none';
    return `| \`${helper.path.replace('/__mock/', '')}\` | ${argument} | ${helper.summary}. |`;
  });
  return ['| Helper | Argument | What it does |', '| --- | --- | --- |', ...rows].join('\n');
}
