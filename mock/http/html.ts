/**
 * `text` safe inside HTML text and double- or single-quoted attributes: `& < > " '` become character references.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
