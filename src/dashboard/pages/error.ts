/** The page shown for an unknown address or run, or a failed request. */
import { html } from '../html.js';
import { page } from '../layout.js';

/** A page with a heading and one line saying what went wrong and where to go instead. */
export function renderErrorPage(status: number, message: string): string {
  const title = status === 404 ? 'Not found' : status === 400 ? 'Bad request' : 'Something went wrong';
  return page(title, null, html`<h1>${title}</h1><div class="error">${message}</div><p><a href="/runs">Back to the runs list</a></p>`);
}
