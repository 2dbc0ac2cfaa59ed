import { call, download, expectOk, get } from './api.js';
import { fields, h, show, when, type Child } from './dom.js';
import type { View } from './view.js';

/** The reports the admin API answers (GET /reports/…), and what each asks for beyond its name. */
const REPORTS = {
  settlementInitiation: { title: 'Settlement initiation', settlement: true, dfsp: false, period: false },
  dfspSettlement: { title: 'DFSP settlement', settlement: true, dfsp: true, period: false },
  dfspSettlementDetail: { title: 'DFSP settlement detail', settlement: true, dfsp: true, period: false },
  dfspSettlementStatement: { title: 'DFSP statement', settlement: false, dfsp: true, period: true },
} as const;
type ReportName = keyof typeof REPORTS;

type Row = Record<string, string | number | undefined>;

/**
 * The reports finance teams ask for: pick a report, a settlement (and a participant, by name; a period for a
 * statement), see it as tables here, download it as CSV. Long reports show their first page; the CSV has every row.
 */
export function reportsView(): View {
  const form = reportForm((report, query) => void showReport(report, query));
  const output = h('div', { 'data-report-output': '' });
  const element = h('section', {}, h('h1', {}, 'Reports'), form, output);
  const showReport = async (report: ReportName, query: URLSearchParams) => {
    try {
      show(output, reportTables(report, await get<Record<string, unknown>>(`/reports/${report}?${query}`)));
    } catch (error) {
      show(output, h('p', { class: 'outcome refused', role: 'alert' }, `Refused: ${(error as Error).message}`));
    }
  };
  // New settlements and participants appear as the page refreshes; the operator's choice stays.
  const refresh = async () => {
    const [settlementList, participants] = await Promise.all([
      call<Array<{ id: number; state: string; createdDate: string }>>('GET', '/v2/settlements?fromDateTime=1970-01-01T00:00:00.000Z'),
      get<Array<{ name: string }>>('/participants'),
    ]);
    // None found is a 400 (3100) there, not an empty list.
    const found = settlementList.status === 400 ? [] : expectOk(settlementList);
    refill(
      form.querySelector<HTMLSelectElement>('select[name="settlementId"]')!,
      found.sort((a, b) => b.id - a.id).map((settlement) => [String(settlement.id), `${settlement.id} — ${settlement.state}, ${when(settlement.createdDate)}`]),
    );
    refill(
      form.querySelector<HTMLSelectElement>('select[name="dfspId"]')!,
      participants.map((participant) => [participant.name, participant.name]),
    );
  };
  return { element, refresh };
}

/** Sets a select's options (value, label), keeping the chosen one chosen. */
function refill(select: HTMLSelectElement, options: Array<[value: string, label: string]>): void {
  const chosen = select.value;
  show(
    select,
    options.map(([value, label]) => h('option', { value, selected: value === chosen }, label)),
  );
}

/** The report's query from the form: only what that report asks for. */
function queryOf(report: ReportName, form: Record<string, string>): URLSearchParams {
  const { settlement, dfsp, period } = REPORTS[report];
  const query = new URLSearchParams();
  if (settlement) query.set('settlementId', form.settlementId);
  if (dfsp) query.set('dfspId', form.dfspId);
  if (period) {
    // Whole days, the end day included: a statement's end is exclusive.
    query.set('startDate', new Date(`${form.startDate}T00:00:00`).toISOString());
    query.set('endDate', new Date(new Date(`${form.endDate}T00:00:00`).getTime() + 86_400_000).toISOString());
    if (form.currency) query.set('currency', form.currency.toUpperCase());
  }
  return query;
}

function reportForm(onShow: (report: ReportName, query: URLSearchParams) => void): HTMLFormElement {
  const today = new Date().toISOString().slice(0, 10);
  const chosen = (form: HTMLFormElement) => {
    const values = fields(form);
    return { report: values.report as ReportName, query: queryOf(values.report as ReportName, values) };
  };
  const form = h(
    'form',
    {
      'data-form': 'report',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const { report, query } = chosen(form);
        onShow(report, query);
      },
    },
    h('label', {}, 'Report ', h('select', { name: 'report' }, ...Object.entries(REPORTS).map(([name, { title }]) => h('option', { value: name }, title)))),
    h('label', {}, 'Settlement ', h('select', { name: 'settlementId' })),
    h('label', {}, 'Participant ', h('select', { name: 'dfspId' })),
    h('label', {}, 'From ', h('input', { name: 'startDate', type: 'date', value: today })),
    h('label', {}, 'To ', h('input', { name: 'endDate', type: 'date', value: today })),
    h('label', {}, 'Currency ', h('input', { name: 'currency', size: 3, maxlength: 3, placeholder: 'any' })),
    h('button', { type: 'submit' }, 'Show'),
    h(
      'button',
      {
        type: 'button',
        'data-action': 'download',
        onclick: () => {
          const { report, query } = chosen(form);
          query.set('format', 'csv');
          return download(`/reports/${report}?${query}`, `${report}.csv`);
        },
      },
      'Download CSV',
    ),
  ) as HTMLFormElement;
  return form;
}

/** A table of `rows` under `columns`' titles, each cell as the report has it (amounts exact, as text). */
function table(name: string, columns: Columns, rows: Row[]): HTMLElement {
  return h(
    'table',
    { class: 'list', 'data-table': name },
    h('thead', {}, h('tr', {}, ...columns.map(([, title]) => h('th', {}, title)))),
    h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map(([key]) => h('td', {}, row[key] ?? ''))))),
  );
}

type Columns = Array<[key: string, title: string]>;

const FLOW: Columns = [
  ['currency', 'Currency'],
  ['sentAmount', 'Sent'],
  ['sentCount', 'Sent (count)'],
  ['receivedAmount', 'Received'],
  ['receivedCount', 'Received (count)'],
  ['netAmount', 'Net'],
];

/** Each report's tables, in order: the list in its answer they show, their heading, their columns. */
const TABLES: Record<ReportName, Array<{ list: string; heading?: string; columns: Columns }>> = {
  settlementInitiation: [
    {
      list: 'lines',
      columns: [
        ['participant', 'Participant'],
        ['accountId', 'Account'],
        ['currency', 'Currency'],
        ['toPay', 'To pay'],
        ['toReceive', 'To receive'],
        ['transferCount', 'Transfers'],
        ['state', 'State'],
      ],
    },
    {
      list: 'totals',
      heading: 'Totals',
      columns: [
        ['currency', 'Currency'],
        ['toPay', 'Paid'],
        ['toReceive', 'Received'],
        ['net', 'Net'],
      ],
    },
  ],
  dfspSettlement: [
    { list: 'windows', columns: [['settlementWindowId', 'Window'], ...FLOW] },
    { list: 'totals', heading: 'Totals', columns: FLOW },
  ],
  dfspSettlementDetail: [
    {
      list: 'transfers',
      columns: [
        ['transferId', 'Transfer'],
        ['settlementWindowId', 'Window'],
        ['completedDate', 'Completed'],
        ['payer', 'Payer'],
        ['payee', 'Payee'],
        ['direction', 'Direction'],
        ['amount', 'Amount'],
        ['currency', 'Currency'],
      ],
    },
  ],
  dfspSettlementStatement: [
    {
      list: 'accounts',
      columns: [
        ['accountId', 'Account'],
        ['ledgerAccountType', 'Type'],
        ['currency', 'Currency'],
        ['openingBalance', 'Opening'],
        ['movements', 'Movements'],
        ['closingBalance', 'Closing'],
      ],
    },
    {
      list: 'movements',
      heading: 'Movements',
      columns: [
        ['createdDate', 'Date'],
        ['accountId', 'Account'],
        ['ledgerAccountType', 'Type'],
        ['kind', 'Kind'],
        ['transferId', 'Transfer'],
        ['amount', 'Amount'],
        ['currency', 'Currency'],
      ],
    },
  ],
};

/** The report's tables (TABLES); a paged one says when only its first page is shown. */
function reportTables(report: ReportName, body: Record<string, unknown>): Child[] {
  return [
    ...TABLES[report].map(({ list, heading, columns }) => [heading && h('h2', {}, heading), table(list, columns, (body[list] ?? []) as Row[])]),
    body.next !== undefined && h('p', {}, 'The first page is shown: the CSV has every row.'),
  ];
}
