/** The few DOM helpers the console's views are written with. */

export type Child = Node | string | number | null | undefined | false | Child[];
type Attribute = string | number | boolean | undefined | ((event: Event) => void | Promise<void>);

/** An element with attributes (`on…` ones are listeners; `false`/undefined ones are left out) and children. */
export function h(tag: string, attributes: Record<string, Attribute> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    // A listener's failure is the page's to show (each action reports its own); one that escapes is logged.
    if (typeof value === 'function')
      element.addEventListener(name.slice(2).toLowerCase(), (event) => void Promise.resolve(value(event)).catch((error: unknown) => console.error(error)));
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else if (child !== null && child !== undefined && child !== false) parent.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces what `parent` shows. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A date and time as the operator reads it: local, to the millisecond. */
export function when(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return `${date.toLocaleDateString()} ${date.toLocaleTimeString()}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

export function money(amount: string | number, currency: string): string {
  return `${amount} ${currency}`;
}

/** JSON as the trace shows it, indented. */
export function json(value: unknown): HTMLElement {
  return h('pre', { class: 'json' }, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/** A form's fields by name. */
export function fields(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([name, value]) => [name, String(value).trim()]));
}
