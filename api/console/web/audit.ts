import type { AuditEntry, AuditPage, AuditVerification } from '../../../activities/shared/contracts/audit.js';
import { download, get } from './api.js';
import { h, json, show, when } from './dom.js';
import { searchForm, type SearchField } from './searchForm.js';
import type { View } from './view.js';

const SEARCH_FIELDS: SearchField[] = [
  ['actor', 'Actor'],
  ['action', 'Action'],
  ['fromDateTime', 'From', 'datetime-local'],
  ['toDateTime', 'To', 'datetime-local'],
];

/** Who, as the trail knows them: a name and roles, or only the kind of credential, or no one (refused without one). */
function who(entry: AuditEntry): string {
  const roles = entry.roles.length > 0 ? ` (${entry.roles.join(', ')})` : '';
  if (entry.actor) return `${entry.actor}${roles}, ${entry.credential}`;
  return entry.credential ? `unnamed${roles}, ${entry.credential}` : 'no accepted credential';
}

function outcome(entry: AuditEntry): string {
  return [entry.status, entry.errorCode, entry.approvalId && `held: approval ${entry.approvalId}`].filter(Boolean).join(' ');
}

function verdict(result: AuditVerification): string {
  if (result.ok) return `Chain intact: ${result.entries} entries verified.`;
  return `Chain broken at entry ${result.brokenAt.sequence}: ${result.brokenAt.reason} (${result.entries} entries intact before it).`;
}

/** A change's state before and after it, where the trail read them; the rest of the entry on request. */
function details(entry: AuditEntry): HTMLElement {
  return h(
    'details',
    {},
    h('summary', {}, entry.before !== null || entry.after !== null ? 'before → after' : 'details'),
    entry.before !== null || entry.after !== null ? [h('b', {}, 'Before'), json(entry.before), h('b', {}, 'After'), json(entry.after)] : '',
    json({
      sequence: entry.sequence,
      route: entry.route,
      permission: entry.permission,
      bodyDigest: entry.bodyDigest,
      detail: entry.detail,
      userAgent: entry.userAgent,
      hash: entry.hash,
    }),
  );
}

/**
 * The audit trail: every change made through the admin and settlement APIs and the console, every decision and sign-in
 * and every refused attempt, newest first, searched by actor, action and time; its chain verified on request, and the
 * search exported as CSV (through the API, with the operator's credential).
 */
export function auditView(query: URLSearchParams): View {
  const results = h('tbody');
  const note = h('p', {});
  const checked = h('p', { class: 'outcome', role: 'status' });
  const form = searchForm('audit', SEARCH_FIELDS, query);
  const verify = async () => {
    show(checked, 'Verifying…');
    try {
      show(checked, verdict(await get<AuditVerification>('/audit/verify')));
    } catch (error) {
      show(checked, `Could not verify: ${(error as Error).message}`);
    }
  };
  const element = h(
    'section',
    {},
    h('h1', {}, 'Audit'),
    form,
    h(
      'p',
      {},
      h('button', { type: 'button', onclick: verify }, 'Verify chain'),
      ' ',
      h('button', { type: 'button', onclick: () => download(`/audit?${withFormat(query)}`, 'audit.csv') }, 'Export CSV'),
    ),
    checked,
    h(
      'table',
      { class: 'list audit' },
      h('thead', {}, h('tr', {}, ...['Time', 'Who', 'Action', 'Target', 'Outcome', 'From', ''].map((title) => h('th', {}, title)))),
      results,
    ),
    note,
  );
  // Drawn again only when it changed, so the entries the operator opened stay open.
  let drawn: string | undefined;
  const refresh = async () => {
    const page = await get<AuditPage>(`/audit?${query}`);
    const seen = JSON.stringify(page);
    if (seen === drawn) return;
    drawn = seen;
    show(note, page.nextCursor ? 'The newest 100 entries are shown; the CSV export holds every one the search finds.' : '');
    show(
      results,
      page.entries.length === 0
        ? h('tr', {}, h('td', { colspan: 7 }, 'No entry matches.'))
        : page.entries.map((entry) =>
            h(
              'tr',
              { 'data-sequence': entry.sequence },
              h('td', {}, when(entry.at)),
              h('td', {}, who(entry)),
              h('td', {}, entry.action),
              h('td', {}, entry.target ?? ''),
              h('td', { class: entry.status !== null && entry.status >= 400 ? 'refused' : '' }, outcome(entry)),
              h('td', {}, entry.address ?? ''),
              h('td', {}, details(entry)),
            ),
          ),
    );
  };
  return { element, refresh };
}

const withFormat = (query: URLSearchParams) => new URLSearchParams([...query.entries(), ['format', 'csv']]);
