/** The page shell shared by every dashboard page: head, navigation and the plain CSS (no build step, no script). */
import { html, trusted, type SafeHtml } from './html.js';

export type Section = 'runs' | 'compare' | 'table' | 'sweeps';

const CSS = `
:root { --fg:#1f2937; --muted:#6b7280; --line:#e5e7eb; --accent:#2563eb; --bg:#f8fafc; --good:#15803d; --bad:#b91c1c; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 "DejaVu Sans", system-ui, sans-serif; color:var(--fg); background:var(--bg); }
header { display:flex; align-items:center; gap:24px; padding:10px 24px; background:#111827; color:#fff; }
header .brand { font-weight:bold; font-size:16px; color:#fff; text-decoration:none; }
header nav a { color:#d1d5db; text-decoration:none; margin-right:16px; padding:4px 0; }
header nav a.active { color:#fff; border-bottom:2px solid #60a5fa; }
main { padding:20px 24px 40px; }
h1 { font-size:22px; margin:0 0 4px; word-break:break-word; }
h2 { font-size:17px; margin:28px 0 10px; }
.sub { color:var(--muted); margin:0 0 16px; word-break:break-all; }
a { color:var(--accent); }
table { border-collapse:collapse; background:#fff; border:1px solid var(--line); }
th, td { padding:5px 10px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
th { background:#f3f4f6; font-weight:600; white-space:nowrap; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
tr:hover td { background:#f9fafb; }
tr.suspect td { background:#fff8e6; }
.flag { color:#b45309; }
.wide { width:100%; }
.filters { display:flex; flex-wrap:wrap; gap:10px; align-items:flex-end; margin-bottom:14px; padding:12px; background:#fff; border:1px solid var(--line); }
.filters label { display:flex; flex-direction:column; font-size:12px; color:var(--muted); gap:3px; }
input[type=text], select { font:inherit; padding:4px 6px; border:1px solid #d1d5db; border-radius:4px; min-width:160px; }
button, .button { font:inherit; padding:5px 14px; border:1px solid var(--accent); background:var(--accent); color:#fff; border-radius:4px; cursor:pointer; text-decoration:none; }
.button.plain { background:#fff; color:var(--accent); }
.count { color:var(--muted); margin:6px 0; }
.chips span { display:inline-block; background:#e0e7ff; color:#1e3a8a; border-radius:10px; padding:1px 8px; margin:1px 4px 1px 0; font-size:12px; }
.facts { display:grid; grid-template-columns:max-content 1fr; gap:4px 16px; background:#fff; border:1px solid var(--line); padding:12px 16px; }
.facts dt { color:var(--muted); }
.facts dd { margin:0; word-break:break-word; }
.cards { display:flex; flex-wrap:wrap; gap:12px; margin:16px 0; }
.card { background:#fff; border:1px solid var(--line); padding:10px 16px; min-width:170px; }
.card .v { font-size:22px; font-weight:600; }
.card .k { color:var(--muted); font-size:12px; }
.warnings { background:#fffbeb; border:1px solid #fcd34d; padding:10px 16px; margin:16px 0; }
.warnings li { margin:2px 0; }
.notice { background:#eff6ff; border:1px solid #bfdbfe; padding:10px 16px; margin:12px 0; }
.error { background:#fef2f2; border:1px solid #fecaca; padding:10px 16px; margin:12px 0; }
.plots { display:grid; grid-template-columns:repeat(auto-fill, minmax(560px, 1fr)); gap:16px; }
figure { margin:0; background:#fff; border:1px solid var(--line); padding:6px; }
figure svg { width:100%; height:auto; display:block; }
figure.single { max-width:980px; }
.scroll { overflow-x:auto; }
td.nowrap { white-space:nowrap; }
td.source { min-width:160px; max-width:320px; }
td.model { min-width:150px; }
#runs { font-size:13px; }
#runs th, #runs td { padding:5px 7px; }
table.best-practice { table-layout:fixed; }
table.best-practice th:nth-child(1) { width:17%; } table.best-practice th:nth-child(2) { width:9%; }
table.best-practice th:nth-child(3) { width:6%; } table.best-practice th:nth-child(4) { width:9%; }
table.best-practice th:nth-child(5) { width:8%; } table.best-practice th:nth-child(6) { width:8%; }
table.best-practice th:nth-child(7) { width:9%; } table.best-practice th:nth-child(8) { width:10%; }
table.best-practice th { white-space:normal; }
table.best-practice td { word-break:break-word; }
details summary { cursor:pointer; font-weight:600; margin:6px 0; }
figure figcaption { color:var(--muted); font-size:12px; padding:4px; }
.missing { color:var(--muted); padding:24px; text-align:center; }
.better { color:var(--good); }
.worse { color:var(--bad); }
code, pre { font-family:"DejaVu Sans Mono", monospace; font-size:12px; }
pre { background:#fff; border:1px solid var(--line); padding:10px; overflow-x:auto; white-space:pre-wrap; word-break:break-all; }
.cols { display:grid; grid-template-columns:repeat(auto-fit, minmax(420px, 1fr)); gap:16px; }
`;

/** A complete HTML page with the navigation bar; `section` marks the active link. */
export function page(title: string, section: Section | null, body: SafeHtml): string {
  const link = (href: string, name: Section, text: string): SafeHtml =>
    html`<a href="${href}" class="${section === name ? 'active' : ''}">${text}</a>`;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · servebench</title>
<style>${trusted(CSS)}</style>
</head>
<body>
<header>
<a class="brand" href="/">servebench</a>
<nav>${link('/runs', 'runs', 'Runs')}${link('/compare', 'compare', 'Compare')}${link('/sweeps', 'sweeps', 'Sweeps')}${link('/table', 'table', 'Best-practice table')}</nav>
</header>
<main>
${body}
</main>
</body>
</html>
`.text;
}
