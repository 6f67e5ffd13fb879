/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * `SafeHtml`. Pages are assembled only through `html`, so text from a log or the catalog can never
 * become markup by accident.
 */
import { escapeHtml } from '../catalog/index.js';

/** A fragment of markup that is safe to embed as is. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A value a template may interpolate: text is escaped, arrays are joined, null/undefined/false vanish. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** The tagged template: `html\`<td>${text}</td>\`` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/**
 * Marks markup from a trusted generator as safe. Only for output that escapes its own text
 * (ECharts' SVG renderer XML-escapes every label).
 */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
