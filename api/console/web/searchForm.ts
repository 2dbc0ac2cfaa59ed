import { fields, h } from './dom.js';

/** A field of a search: its query parameter, its label, and an input type other than text (`datetime-local`). */
export type SearchField = [name: string, label: string, type?: string];

/**
 * A page's search form. Its fields start from the address's query and, submitted, become it (`#/<page>?…`), so a search
 * can be bookmarked and comes back on refresh; times travel as ISO instants, shown in the operator's local time. A
 * field with `choices` is a drop-down, its first choice meaning "any".
 */
export function searchForm(page: string, searchFields: SearchField[], query: URLSearchParams, choices: Record<string, string[]> = {}): HTMLElement {
  return h(
    'form',
    {
      class: 'search',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const given = Object.entries(fields(event.target as HTMLFormElement)).filter(([, value]) => value !== '');
        location.hash = `#/${page}?${new URLSearchParams(given.map(([name, value]) => [name, name.endsWith('DateTime') ? new Date(value).toISOString() : value]))}`;
      },
    },
    searchFields.map(([name, label, type]) =>
      h(
        'label',
        {},
        `${label} `,
        choices[name]
          ? h(
              'select',
              { name },
              choices[name].map((choice) => h('option', { value: choice, selected: query.get(name) === choice }, choice || 'any')),
            )
          : h('input', { name, type: type ?? 'text', value: type ? localInput(query.get(name)) : (query.get(name) ?? '') }),
      ),
    ),
    h('button', { type: 'submit' }, 'Search'),
  );
}

/** An ISO instant as a datetime-local input shows it: the operator's local time, to the millisecond. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 23);
}
