import { call, expectOk, get, Held } from './api.js';
import { fields, h, money, show, when } from './dom.js';
import type { View } from './view.js';

interface Participant {
  name: string;
  isActive: 0 | 1;
  accounts: Array<{ id: number; ledgerAccountType: string; currency: string; isActive: 0 | 1 }>;
}
interface Limit {
  name?: string;
  currency: string;
  limit: { type: string; value: number; alarmPercentage: number };
}
interface Position {
  currency: string;
  value: number;
  changedDate: string;
}

/** How much of its Net Debit Cap a position uses, and whether it is past the alarm or the cap itself. */
export function capUse(position: number, limit: Limit['limit'] | undefined): { share: number; level: 'ok' | 'alarm' | 'breach' } {
  if (!limit || limit.value <= 0) return { share: position > 0 ? 1 : 0, level: position > 0 ? 'breach' : 'ok' };
  const share = Math.max(position, 0) / limit.value;
  const alarmAt = limit.value * (1 - limit.alarmPercentage / 100);
  return { share, level: position >= limit.value ? 'breach' : position >= alarmAt ? 'alarm' : 'ok' };
}

/** The headroom bar: the share of the cap the position uses, amber at the alarm, red at the cap. */
function capBar(position: number, limit: Limit['limit'] | undefined): HTMLElement {
  const { share, level } = capUse(position, limit);
  const headroom = limit ? limit.value - position : undefined;
  const used = h('div', { class: 'used' });
  // Through the CSSOM: the admin API's Content-Security-Policy refuses style attributes.
  used.style.width = `${Math.min(share, 1) * 100}%`;
  return h(
    'div',
    { class: `cap ${level}`, 'data-level': level, title: headroom === undefined ? 'no Net Debit Cap' : `headroom ${headroom}` },
    used,
    h('span', {}, limit ? `${position} of ${limit.value} (headroom ${headroom})` : `${position}, no cap`),
  );
}

/** Every participant: active or not (switchable, but for the hub's own), and per currency its position against its Net Debit Cap. */
export function participantsView(hub: string): View {
  const table = h('tbody');
  const element = h(
    'section',
    {},
    h('h1', {}, 'Participants'),
    h(
      'table',
      { class: 'list' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Participant'), h('th', {}, 'Active'), h('th', {}, 'Positions against the Net Debit Cap'))),
      table,
    ),
  );
  const refresh = async () => {
    const [participants, limits, allPositions] = await Promise.all([
      get<Participant[]>('/participants'),
      get<Limit[]>('/participants/limits'),
      get<Array<Position & { name: string }>>('/participants/positions'),
    ]);
    const rows = participants.map((participant) => {
      const positions = allPositions.filter((position) => position.name === participant.name);
      return h(
        'tr',
        { 'data-participant': participant.name },
        h('td', {}, h('a', { href: `#/participants/${encodeURIComponent(participant.name)}` }, participant.name)),
        h('td', {}, participant.name === hub ? 'the hub' : activeSwitch(participant, refresh)),
        h(
          'td',
          {},
          positions.map((position) =>
            h(
              'div',
              { class: 'position' },
              h('b', {}, position.currency),
              capBar(position.value, limits.find((limit) => limit.name === participant.name && limit.currency === position.currency)?.limit),
            ),
          ),
        ),
      );
    });
    show(table, rows);
  };
  return { element, refresh };
}

function activeSwitch(participant: Pick<Participant, 'name' | 'isActive'>, then: () => Promise<void>): HTMLElement {
  const active = participant.isActive === 1;
  return h(
    'button',
    {
      class: active ? 'on' : 'off',
      'data-action': 'toggle-active',
      onclick: async () => {
        expectOk(await call('PUT', `/participants/${encodeURIComponent(participant.name)}`, { isActive: !active }));
        await then();
      },
    },
    active ? 'active — deactivate' : 'inactive — activate',
  );
}

/** What a form does once submitted, answering what the page tells the operator. */
type FormWork = (form: Record<string, string>) => Promise<string>;
/** A form's submit handler: its work, its outcome (or refusal) told, the page read again. */
type Attempt = (work: FormWork) => (event: Event) => Promise<void>;

interface Account {
  id: number;
  ledgerAccountType: string;
  currency: string;
  value: number;
  isActive: 0 | 1;
  settlementModel?: string | null;
}

/** One participant: its accounts and positions, limits (editable), funds in and out, endpoints and JWS setting. */
export function participantView(name: string): View {
  const path = `/participants/${encodeURIComponent(name)}`;
  const summary = h('div');
  const accounts = h('tbody');
  const endpoints = h('tbody');
  const signature = h('div');
  const outcome = h('p', { class: 'outcome', role: 'status' });
  const report = (text: string) => show(outcome, text);
  const attempt: Attempt = (work) => async (event) => {
    event.preventDefault();
    try {
      report(await work(fields(event.target as HTMLFormElement)));
      await refresh();
    } catch (error) {
      report(error instanceof Held ? error.message : `Refused: ${(error as Error).message}`);
    }
  };
  const element = h(
    'section',
    {},
    h('h1', {}, name),
    summary,
    h(
      'table',
      { class: 'list' },
      h('thead', {}, h('tr', {}, ...['Account', 'Type', 'Currency', 'Balance', 'Settled by', 'Active'].map((title) => h('th', {}, title)))),
      accounts,
    ),
    h('div', { class: 'forms' }, capForm(name, path, attempt), fundsForm(name, path, attempt)),
    outcome,
    h('h2', {}, 'Endpoints'),
    h('table', { class: 'list' }, endpoints),
    h('h2', {}, 'End-to-end signatures (JWS)'),
    signature,
  );
  const refresh = async () => {
    const [participant, accountList, limits, positions, endpointList, jws] = await Promise.all([
      get<Participant>(path),
      get<Account[]>(`${path}/accounts`),
      get<Limit[]>(`${path}/limits`),
      get<Position[]>(`${path}/positions`),
      get<Array<{ type: string; value: string }>>(`${path}/endpoints`),
      get<Record<string, unknown>>(`${path}/jws`),
    ]);
    show(
      summary,
      h('p', {}, activeSwitch(participant, refresh)),
      positions.map((position) => positionLine(position, limits)),
    );
    show(accounts, accountList.map(accountRow));
    show(
      endpoints,
      endpointList.map((endpoint) => h('tr', {}, h('td', {}, endpoint.type), h('td', {}, h('code', {}, endpoint.value)))),
    );
    show(signature, h('pre', { class: 'json' }, JSON.stringify(jws, null, 2)));
  };
  return { element, refresh };
}

/** A position in one currency against its Net Debit Cap, and when it last changed. */
function positionLine(position: Position, limits: Limit[]): HTMLElement {
  return h(
    'div',
    { class: 'position' },
    h('b', {}, position.currency),
    capBar(position.value, limits.find((limit) => limit.currency === position.currency)?.limit),
    h('small', {}, ` changed ${when(position.changedDate)}`),
  );
}

function accountRow(account: Account): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, account.id),
    h('td', {}, account.ledgerAccountType),
    h('td', {}, account.currency),
    h('td', {}, account.value),
    h('td', {}, account.settlementModel ?? '—'),
    h('td', {}, account.isActive ? 'yes' : 'no'),
  );
}

/** Sets the participant's Net Debit Cap in a currency. */
function capForm(name: string, path: string, attempt: Attempt): HTMLElement {
  return h(
    'form',
    {
      'data-form': 'limit',
      onsubmit: attempt(async (form) => {
        expectOk(
          await call('PUT', `${path}/limits`, {
            currency: form.currency,
            limit: { type: 'NET_DEBIT_CAP', value: form.value, alarmPercentage: form.alarmPercentage || '10' },
          }),
        );
        return `Net Debit Cap of ${name} in ${form.currency} set to ${form.value}`;
      }),
    },
    h('h2', {}, 'Net Debit Cap'),
    h('label', {}, 'Currency ', h('input', { name: 'currency', value: 'USD', size: 3, required: true })),
    h('label', {}, 'Cap ', h('input', { name: 'value', inputmode: 'decimal', required: true })),
    h('label', {}, 'Alarm at % short of it ', h('input', { name: 'alarmPercentage', value: '10', size: 3 })),
    h('button', { type: 'submit' }, 'Set cap'),
  );
}

/** Records funds into or out of the participant's SETTLEMENT account in a currency. */
function fundsForm(name: string, path: string, attempt: Attempt): HTMLElement {
  const settlementAccount = async (currency: string) => {
    const account = (await get<Account[]>(`${path}/accounts`)).find(
      (candidate) => candidate.ledgerAccountType === 'SETTLEMENT' && candidate.currency === currency,
    );
    if (!account) throw new Error(`${name} has no SETTLEMENT account in ${currency}`);
    return account.id;
  };
  return h(
    'form',
    {
      'data-form': 'funds',
      onsubmit: attempt(async (form) => {
        const account = await settlementAccount(form.currency);
        const transferId = crypto.randomUUID();
        const amount = { amount: form.amount, currency: form.currency };
        const movement = { transferId, externalReference: form.reference || 'console', reason: form.reason || 'recorded in the console', amount };
        if (form.direction === 'in') {
          expectOk(await call('POST', `${path}/accounts/${account}`, { ...movement, action: 'recordFundsIn' }));
          return `Funds in: ${money(form.amount, form.currency)} recorded for ${name}`;
        }
        // One call, one ledger step: a reservation the browser never got to commit cannot be left behind.
        expectOk(await call('POST', `${path}/accounts/${account}`, { ...movement, action: 'recordFundsOut' }));
        return `Funds out: ${money(form.amount, form.currency)} paid out to ${name}`;
      }),
    },
    h('h2', {}, 'Funds in and out'),
    h('label', {}, h('input', { type: 'radio', name: 'direction', value: 'in', checked: true }), ' in'),
    h('label', {}, h('input', { type: 'radio', name: 'direction', value: 'out' }), ' out'),
    h('label', {}, 'Amount ', h('input', { name: 'amount', inputmode: 'decimal', required: true })),
    h('label', {}, 'Currency ', h('input', { name: 'currency', value: 'USD', size: 3, required: true })),
    h('label', {}, 'Reference ', h('input', { name: 'reference' })),
    h('label', {}, 'Reason ', h('input', { name: 'reason' })),
    h('button', { type: 'submit' }, 'Record'),
  );
}
