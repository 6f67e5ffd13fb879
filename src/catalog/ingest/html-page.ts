/**
 * A saved HTML page as the text the document reader understands: headings as Markdown headings,
 * code blocks (launch scripts, bench commands, logged results) line for line, tables as Markdown
 * tables (a cell's link to an `#anchor` kept, so a summary row still points at its recipe), and
 * other blocks as lines of prose. Parsed with parse5, the HTML standard's parsing algorithm, so a
 * page saved from a browser reads as the browser showed it, unclosed tags and entities included.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Never shown as content: scripts, styles, and the site's navigation around the page. */
const SKIPPED = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg', 'button', 'nav', 'aside', 'footer', 'select', 'iframe']);
const BLOCKS = new Set([
  'address', 'article', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure', 'form', 'header', 'hr', 'li', 'main',
  'ol', 'p', 'section', 'summary', 'ul', 'caption',
]);

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function childrenOf(node: Node): Node[] {
  return 'childNodes' in node ? (node.childNodes as Node[]) : [];
}

/** Collects output lines; blank lines between blocks are kept single. */
class Lines {
  readonly lines: string[] = [];
  private current = '';

  text(text: string): void {
    this.current += text;
  }

  /** Ends the current line (if it has text). */
  end(): void {
    const line = this.current.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (line) this.lines.push(line);
    this.current = '';
  }

  /** Ends the current line and leaves a blank one before what follows. */
  gap(): void {
    this.end();
    if (this.lines.length && this.lines.at(-1) !== '') this.lines.push('');
  }

  /** A line exactly as given (code keeps its spaces). */
  verbatim(line: string): void {
    this.lines.push(line.replace(/\s+$/, ''));
  }
}

/** The text of an element as one line: white space collapsed, `#anchor` links kept as Markdown links. */
function inlineText(node: Node, keepAnchors: boolean): string {
  if (!isElement(node)) return node.nodeName === '#text' ? (node as DefaultTreeAdapterMap['textNode']).value : '';
  if (SKIPPED.has(node.tagName)) return '';
  if (node.tagName === 'br') return ' ';
  const inner = childrenOf(node).map((c) => inlineText(c, keepAnchors)).join('');
  const href = node.tagName === 'a' ? node.attrs.find((a) => a.name === 'href')?.value : undefined;
  return keepAnchors && href?.startsWith('#') ? `[${inner.trim()}](${href})` : inner;
}

/** The text of a code block, line for line: `<br>` and block elements inside it end lines. */
function codeText(node: Node): string {
  if (!isElement(node)) return node.nodeName === '#text' ? (node as DefaultTreeAdapterMap['textNode']).value : '';
  if (node.tagName === 'br') return '\n';
  const inner = childrenOf(node).map(codeText).join('');
  return BLOCKS.has(node.tagName) && !inner.endsWith('\n') ? `${inner}\n` : inner;
}

function cellText(cell: Element): string {
  return inlineText(cell, true).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** A table as Markdown: its first row is the header; a cell spanning columns fills each of them. */
function writeTable(table: Element, out: Lines): void {
  const rows: string[][] = [];
  const visit = (node: Node): void => {
    if (!isElement(node)) return;
    if (node.tagName === 'tr') {
      const cells = childrenOf(node).filter((c): c is Element => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'));
      rows.push(cells.flatMap((c) => Array<string>(Math.max(1, Number(c.attrs.find((a) => a.name === 'colspan')?.value ?? 1) || 1)).fill(cellText(c))));
    } else if (node.tagName !== 'table' || node === table) {
      childrenOf(node).forEach(visit);
    }
  };
  visit(table);
  if (rows.length === 0) return;
  out.gap();
  const width = Math.max(...rows.map((r) => r.length));
  const line = (cells: readonly string[]): string => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  out.verbatim(line(rows[0]!));
  out.verbatim(`|${Array(width).fill('---').join('|')}|`);
  for (const row of rows.slice(1)) out.verbatim(line(row));
  out.gap();
}

function write(node: Node, out: Lines): void {
  if (!isElement(node)) {
    if (node.nodeName === '#text') out.text((node as DefaultTreeAdapterMap['textNode']).value.replace(/\s+/g, ' '));
    else childrenOf(node).forEach((c) => write(c, out));
    return;
  }
  const tag = node.tagName;
  if (SKIPPED.has(tag)) return;
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) {
    // The heading's id is what the page's links point at: kept as a `{#id}` after its text.
    const id = node.attrs.find((a) => a.name === 'id')?.value;
    out.gap();
    out.verbatim(`${'#'.repeat(Number(heading[1]))} ${inlineText(node, false).replace(/\s+/g, ' ').trim()}${id ? ` {#${id}}` : ''}`);
    out.gap();
  } else if (tag === 'pre') {
    // Fenced, so a `# comment` in a script does not read as a heading.
    out.gap();
    out.verbatim('```');
    codeText(node).replace(/\n$/, '').split('\n').forEach((l) => out.verbatim(l));
    out.verbatim('```');
    out.gap();
  } else if (tag === 'table') {
    writeTable(node, out);
  } else if (tag === 'br') {
    out.end();
  } else if (BLOCKS.has(tag)) {
    out.end();
    childrenOf(node).forEach((c) => write(c, out));
    out.end();
  } else {
    childrenOf(node).forEach((c) => write(c, out));
  }
}

/** The page's content as document text (see the module comment). */
export function htmlToDocumentText(html: string): string {
  const out = new Lines();
  write(parse(html) as unknown as Node, out);
  out.end();
  return out.lines.join('\n').trim();
}

const HTML_DOCUMENT = /^\s*(<!doctype html|<html[\s>]|<\?xml[^>]*>\s*<html)/i;
/** A Markdown table separator: a Markdown page that opens with markup (`<div align="center">`) is still Markdown. */
const MARKDOWN_TABLE = /^\s*\|?\s*:?-{3,}:?\s*\|/m;

/** True for a text that is an HTML page (or a saved fragment of one) rather than a log or Markdown that holds a tag. */
export function looksLikeHtml(text: string): boolean {
  return HTML_DOCUMENT.test(text) || (/^\s*</.test(text) && /<\/(table|pre|body)>/i.test(text) && !MARKDOWN_TABLE.test(text));
}
