/**
 * `text` safe inside HTML text and double- or single-quoted attributes: `& < > " '` become character references.
 * @example
 * escapeHtml('<b>"Asha"</b>'); // '&#60;b&#62;&#34;Asha&#34;&#60;/b&#62;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
