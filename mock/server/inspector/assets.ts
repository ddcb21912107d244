/**
 * The inspector's inline style and script: the page loads nothing else, so it works offline and under a
 * content security policy that allows only these two blocks (by nonce).
 */

/** The page's CSS: one column on a narrow screen, timeline and side panel from 1100 px; nothing scrolls sideways. */
export const INSPECTOR_STYLE = `
*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f5f9;color:#1d2433;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 16px;padding:10px 20px;background:#1d2433;color:#fff}
header h1{font-size:18px;margin:0}header .meta{color:#c5cbe0;font-size:13px}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12px}
a{color:#2451b3}
form.filters{display:flex;flex-wrap:wrap;align-items:end;gap:8px 14px;padding:10px 20px;background:#fff;border-bottom:1px solid #dfe3ec}
form.filters label{display:flex;flex-direction:column;font-size:12px;color:#5b6478;min-width:0}
form.filters select{font:inherit;max-width:min(360px,86vw);padding:4px 6px;border:1px solid #cfd5e2;border-radius:6px;background:#fff}
button{font:inherit;border:1px solid #cfd5e2;background:#fff;border-radius:6px;padding:4px 10px;cursor:pointer}
button.primary{background:#2451b3;border-color:#2451b3;color:#fff}
.layout{display:grid;grid-template-columns:minmax(0,1fr);gap:16px;padding:16px 20px}
@media (min-width:1100px){.layout{grid-template-columns:minmax(0,1fr) minmax(0,400px)}}
section{background:#fff;border:1px solid #dfe3ec;border-radius:10px;padding:12px 14px;margin:0 0 16px;min-width:0}
h2{font-size:15px;margin:0 0 8px}h3{font-size:13px;margin:10px 0 4px}h4{font-size:12px;margin:8px 0 2px;color:#5b6478}
.note{color:#5b6478;font-size:12px;margin:0 0 8px}
ol.timeline{list-style:none;margin:0;padding:0}
.entry{border-left:4px solid #cfd5e2;padding:6px 8px;margin:0 0 6px;background:#fafbfd;border-radius:0 6px 6px 0;min-width:0}
.entry.request{border-color:#2451b3}.entry.transition{border-color:#7a3db8}.entry.webhook{border-color:#1f8a4c}
.entry.timer{border-color:#b07a00}.entry.helper{border-color:#5b6478}.entry.failed{background:#fff4f3}
.line{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 8px;min-width:0}
.line>*{min-width:0;overflow-wrap:anywhere}
.seq{color:#8a92a6;font-size:11px}.kind{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:#5b6478}
.chip{display:inline-block;font-size:11px;border-radius:999px;padding:0 8px;background:#eef1f7;color:#3b4357;overflow-wrap:anywhere}
.chip.ok{background:#e2f4ea;color:#1b6e3e}.chip.bad{background:#fde4e1;color:#a3261d}.chip.warn{background:#fff1d6;color:#7a5200}
.explain{margin:4px 0 0;color:#a3261d;font-size:12px;overflow-wrap:anywhere}
details{margin:4px 0 0}summary{cursor:pointer;color:#2451b3;font-size:12px}
pre{margin:2px 0 6px;padding:6px 8px;background:#f0f2f7;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word;max-height:320px;overflow-y:auto}
.curl{display:flex;flex-direction:column;gap:2px}
table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:12px}
th,td{text-align:left;padding:3px 4px;border-bottom:1px solid #eef1f7;vertical-align:top;overflow-wrap:break-word}
th:first-child{width:26%}th:nth-child(2){width:40%}
th{color:#5b6478;font-weight:600}
svg.machine{display:block;width:100%;height:auto;max-height:360px;margin:4px 0}
svg.machine .state rect{fill:#fff;stroke:#8a92a6;stroke-width:1.2}
svg.machine .state.final rect{stroke-width:2.4}
svg.machine .state text{font:12px ui-monospace,Menlo,Consolas,"DejaVu Sans Mono",monospace;text-anchor:middle;fill:#1d2433}
svg.machine .state.current rect{fill:#2451b3;stroke:#2451b3}svg.machine .state.current text{fill:#fff;font-weight:700}
svg.machine .state.next rect{fill:#fff7e0;stroke:#b07a00;stroke-width:2;stroke-dasharray:5 3}
svg.machine .edge{fill:none;stroke:#8a92a6;stroke-width:1.2}svg.machine .edge.next-edge{stroke:#b07a00;stroke-width:2.4}
svg.machine .arrowhead{fill:#8a92a6}svg.machine .start{fill:#1d2433}
.legend{display:flex;flex-wrap:wrap;gap:4px 12px;font-size:12px;color:#5b6478;margin:0 0 6px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:3px;vertical-align:-2px;margin-right:4px;border:1px solid #2451b3;background:#2451b3}
.swatch.next{background:#fff7e0;border:2px dashed #b07a00}
ul.plain{margin:0;padding-left:18px}
`;

/**
 * The page's script: "Copy as curl" buttons (clipboard, or selecting the text where the clipboard is refused)
 * and filters that apply as soon as one changes. Everything works without it, by the form's button.
 */
export const INSPECTOR_SCRIPT = `
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  const text = source.textContent;
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    const details = source.closest('details');
    if (details) details.open = true;
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    button.textContent = document.execCommand('copy') ? 'Copied' : 'Selected: press Ctrl+C';
  }
  setTimeout(() => { button.textContent = label; }, 2000);
});
const filters = document.querySelector('form.filters');
// Empty filters stay out of the address, so it reads ?userId=usr_… rather than ?userId=usr_…&transactionId=&type=.
filters?.addEventListener('submit', () => {
  for (const select of filters.querySelectorAll('select')) select.disabled = select.value === '';
});
// Coming back to the page (the back button) finds the filters as they were, usable.
addEventListener('pageshow', () => {
  for (const select of document.querySelectorAll('form.filters select')) select.disabled = false;
});
for (const select of filters ? filters.querySelectorAll('select') : []) {
  select.addEventListener('change', () => filters.requestSubmit());
}
`;
