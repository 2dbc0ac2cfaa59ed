import { call, download, expectOk, get, Held } from './api.js';
import { fields, h, show, when } from './dom.js';
import { accountOwners } from './participantNames.js';
import type { View } from './view.js';

interface Window {
  settlementWindowId: number;
  state: string;
  reason?: string;
  createdDate: string;
  changedDate?: string;
}
interface Settlement {
  id: number;
  state: string;
  reason?: string;
  createdDate: string;
  settlementWindows: Window[];
  participants: Array<{ id: number; accounts: Array<{ id: number; state: string; netSettlementAmount: { amount: number | string; currency: string } }> }>;
}

/** The states a settlement's accounts are walked through, in order, to SETTLED. */
const STEPS = ['PS_TRANSFERS_RECORDED', 'PS_TRANSFERS_RESERVED', 'PS_TRANSFERS_COMMITTED', 'SETTLED'];
const nextStep = (state: string) => (state === 'PENDING_SETTLEMENT' ? STEPS[0] : STEPS[STEPS.indexOf(state) + 1]);

/** Runs an action of the page: its outcome (or refusal) told, the page read again. */
type Act = (work: () => Promise<string>) => Promise<void>;

/**
 * Settlement over Mojaloop's settlement API (/v2): the windows (close the open one now), settlements (create one from
 * closed windows under a model, walk its accounts to SETTLED, abort it), each participant's net amount, the report.
 */
export function settlementView(): View {
  const windows = h('tbody');
  const settlements = h('div');
  const outcome = h('p', { class: 'outcome', role: 'status' });
  const act: Act = async (work) => {
    try {
      show(outcome, await work());
    } catch (error) {
      show(outcome, error instanceof Held ? error.message : `Refused: ${(error as Error).message}`);
    }
    await refresh();
  };
  const createForm = settleForm(act);
  const element = h(
    'section',
    {},
    h('h1', {}, 'Settlement'),
    h('h2', {}, 'Windows'),
    h('table', { class: 'list' }, h('thead', {}, h('tr', {}, ...['Window', 'State', 'Opened', 'Changed', ''].map((title) => h('th', {}, title)))), windows),
    createForm,
    outcome,
    h('h2', {}, 'Settlements'),
    settlements,
  );
  const refresh = async () => {
    const [windowList, settlementList, models, owners] = await Promise.all([
      found<Window>('/v2/settlementWindows?fromDateTime=1970-01-01T00:00:00.000Z'),
      found<Settlement>('/v2/settlements?fromDateTime=1970-01-01T00:00:00.000Z'),
      get<Array<{ name: string; isActive: boolean; settlementDelay: string }>>('/settlementModels'),
      accountOwners(),
    ]);
    const select = createForm.querySelector('select')!;
    if (select.options.length === 0)
      show(
        select,
        models.filter((model) => model.isActive && model.settlementDelay === 'DEFERRED').map((model) => h('option', { value: model.name }, model.name)),
      );
    show(
      windows,
      windowList.sort((a, b) => b.settlementWindowId - a.settlementWindowId).map((window) => windowRow(window, act)),
    );
    show(
      settlements,
      settlementList.sort((a, b) => b.id - a.id).map((settlement) => settlementCard(settlement, owners, act)),
    );
  };
  return { element, refresh };
}

/** Creates a settlement of closed windows under a deferred model (the page fills in the models). */
function settleForm(act: Act): HTMLElement {
  return h(
    'form',
    {
      'data-form': 'settle',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const form = fields(event.target as HTMLFormElement);
        void act(async () => {
          const ids = form.windows
            .split(/[\s,]+/)
            .filter(Boolean)
            .map(Number);
          const created = expectOk(
            await call<Settlement>('POST', '/v2/settlements', {
              settlementModel: form.model,
              reason: form.reason || 'settled in the console',
              settlementWindows: ids.map((id) => ({ id })),
            }),
          );
          return `Settlement ${created.id} created (${created.state})`;
        });
      },
    },
    h('h2', {}, 'Settle closed windows'),
    h('label', {}, 'Model ', h('select', { name: 'model', 'data-models': '' })),
    h('label', {}, 'Windows ', h('input', { name: 'windows', placeholder: '1, 2', required: true })),
    h('label', {}, 'Reason ', h('input', { name: 'reason' })),
    h('button', { type: 'submit' }, 'Create settlement'),
  );
}

/** A window, and for the open one a button that closes it now. */
function windowRow(window: Window, act: Act): HTMLElement {
  return h(
    'tr',
    { 'data-window': window.settlementWindowId },
    h('td', {}, window.settlementWindowId),
    h('td', { class: 'state' }, window.state),
    h('td', {}, when(window.createdDate)),
    h('td', {}, when(window.changedDate)),
    h(
      'td',
      {},
      window.state === 'OPEN' &&
        h(
          'button',
          {
            'data-action': 'close-window',
            onclick: () =>
              act(async () => {
                const opened = expectOk(
                  await call<Window>('POST', `/v2/settlementWindows/${window.settlementWindowId}`, {
                    state: 'CLOSED',
                    reason: 'closed in the console',
                  }),
                );
                return `Window ${window.settlementWindowId} closed; window ${opened.settlementWindowId} is open`;
              }),
          },
          'Close now',
        ),
    ),
  );
}

/** A search of Mojaloop's settlement API: one that finds nothing is answered with an error there (3100 "No … found"), not an empty list. */
async function found<T>(path: string): Promise<T[]> {
  const answer = await call<T[]>('GET', path);
  const error = (answer.body as { errorInformation?: { errorCode: string; errorDescription: string } } | undefined)?.errorInformation;
  if (answer.status === 400 && error?.errorCode === '3100' && / not found|No .* found/.test(error.errorDescription)) return [];
  return expectOk(answer);
}

/** A settlement: its windows and accounts, and what may be done with it now. */
function settlementCard(settlement: Settlement, owners: Map<number, string>, act: Act): HTMLElement {
  const step = nextStep(settlement.state);
  const final = settlement.state === 'SETTLED' || settlement.state === 'ABORTED';
  return h(
    'article',
    { class: 'settlement', 'data-settlement': settlement.id },
    h(
      'h3',
      {},
      `Settlement ${settlement.id}: `,
      h('span', { class: 'state', 'data-state': settlement.state }, settlement.state),
      ` — windows ${settlement.settlementWindows.map((window) => window.settlementWindowId).join(', ')}, ${when(settlement.createdDate)}`,
    ),
    settlementAccounts(settlement, owners),
    !final && step && advanceButton(settlement, step, act),
    !final && abortButton(settlement, act),
    ' ',
    h(
      'button',
      { 'data-action': 'report', onclick: () => void download(`/v2/settlements/${settlement.id}/report?format=csv`, `settlement-${settlement.id}.csv`) },
      'Download report (CSV)',
    ),
  );
}

/** Each participant's accounts in the settlement, by name (its ID in the tooltip), with their net amounts and states. */
function settlementAccounts(settlement: Settlement, owners: Map<number, string>): HTMLElement {
  return h(
    'table',
    { class: 'list' },
    h('thead', {}, h('tr', {}, ...['Participant', 'Account', 'Net amount', 'State'].map((title) => h('th', {}, title)))),
    h(
      'tbody',
      {},
      settlement.participants.flatMap((participant) =>
        participant.accounts.map((account) =>
          h(
            'tr',
            {},
            h('td', { class: 'participant', title: `participant ID ${participant.id}` }, owners.get(account.id) ?? participant.id),
            h('td', {}, account.id),
            h('td', {}, `${account.netSettlementAmount.amount} ${account.netSettlementAmount.currency}`),
            h('td', {}, account.state),
          ),
        ),
      ),
    ),
  );
}

/** Moves every account of the settlement to its next step. */
function advanceButton(settlement: Settlement, step: string, act: Act): HTMLElement {
  return h(
    'button',
    {
      'data-action': 'advance',
      onclick: () =>
        act(async () => {
          const participants = settlement.participants.map((participant) => ({
            id: participant.id,
            accounts: participant.accounts.map((account) => ({ id: account.id, state: step, reason: `${step} in the console` })),
          }));
          const moved = expectOk(await call<Settlement>('PUT', `/v2/settlements/${settlement.id}`, { participants }));
          return `Settlement ${settlement.id} → ${moved.state}`;
        }),
    },
    `Move every account to ${step}`,
  );
}

function abortButton(settlement: Settlement, act: Act): HTMLElement {
  return h(
    'button',
    {
      'data-action': 'abort',
      onclick: () =>
        act(async () => {
          const aborted = expectOk(await call<Settlement>('PUT', `/v2/settlements/${settlement.id}`, { state: 'ABORTED', reason: 'aborted in the console' }));
          return `Settlement ${settlement.id} → ${aborted.state}`;
        }),
    },
    'Abort',
  );
}
