import type { FailingDeliveries, SetAsideEmail, TransferSummary } from '../../../activities/shared/contracts/trace.js';
import { call, get, NotAllowed } from './api.js';
import { h, money, show, when } from './dom.js';
import { capUse } from './participants.js';
import type { View } from './view.js';

/** The items of one list of alarms, or that there is none. */
function showAlarms(list: HTMLElement, items: HTMLElement[]): void {
  show(list, items.length === 0 ? h('li', {}, 'None.') : items);
}

const participantLink = (name: string) => h('a', { href: `#/participants/${encodeURIComponent(name)}` }, name);

function stuckTransfer(transfer: TransferSummary): HTMLElement {
  return h(
    'li',
    {},
    h('a', { href: `#/transfers/${transfer.transferId}` }, transfer.transferId),
    ` ${transfer.state}: ${money(transfer.amount.amount, transfer.amount.currency)} from ${transfer.payerFsp} to ${transfer.payeeFsp}, since ${when(transfer.createdDate)}`,
  );
}

function failingDelivery(failure: FailingDeliveries): HTMLElement {
  return h(
    'li',
    {},
    participantLink(failure.participant),
    ` ${failure.failures} failed: latest ${failure.latest.method} ${failure.latest.target} — ${failure.latest.error} (${when(failure.latest.at)}) `,
    failure.latest.conversation.startsWith('transfers/') && h('a', { href: `#/transfers/${failure.latest.conversation.slice('transfers/'.length)}` }, 'trace'),
  );
}

function setAsideEmail(email: SetAsideEmail): HTMLElement {
  return h(
    'li',
    {},
    participantLink(email.to),
    ` ${email.type} "${email.subject}"${email.about ? ` about ${email.about} ${email.currency ?? ''}` : ''} of ${when(email.createdDate)}: `,
    `refused ${email.attempts} times, lastly ${email.lastError}`,
  );
}

/** A broken invariant as the latest ledger check names it (activities/hub/ledger/invariants.ts's Violation). */
interface LedgerViolation {
  invariant: string;
  participant?: string;
  ledgerAccountType?: string;
  currency: string;
  accountId?: number;
  balance?: string;
  held?: string;
  journal?: string;
  expected?: string;
  sum?: string;
}

function ledgerViolation(violation: LedgerViolation): HTMLElement {
  if (violation.participant === undefined)
    return h('li', { class: 'breach' }, `${violation.invariant}: ${violation.currency} accounts sum to ${violation.sum ?? '?'}`);
  const should = violation.expected ?? violation.journal ?? '?';
  return h(
    'li',
    { class: 'breach' },
    `${violation.invariant}: `,
    participantLink(violation.participant),
    ` ${violation.ledgerAccountType ?? ''} ${violation.currency} (account ${violation.accountId ?? '?'}) ${violation.balance ?? ''} is ${violation.held ?? '?'}, should be ${should}`,
  );
}

/**
 * The latest ledger check's violations (GET /ledger/checks/latest): listed until a later check finds the ledger whole;
 * none before the first check; a role that may not read it is told so here, the other alarms still shown.
 */
async function ledgerAlarms(): Promise<HTMLElement[]> {
  try {
    const { status, body } = await call<{ checkedAt: string; violations: LedgerViolation[] }>('GET', '/ledger/checks/latest');
    if (status === 404) return [];
    return status === 200 ? body.violations.map(ledgerViolation) : [h('li', {}, `The ledger check could not be read (${status}).`)];
  } catch (error) {
    if (error instanceof NotAllowed) return [h('li', {}, `Not shown: ${error.message}.`)];
    throw error;
  }
}

/**
 * What needs the operator now: the ledger breaking its invariants (the accounts it names), participants past their Net Debit Cap's alarm (or the cap), transfers still open past
 * their expiration, participants the switch keeps failing to deliver to, and e-mails to participants that the mail
 * server kept refusing (an address to correct); each linked to where to look.
 */
export function alarmsView(): View {
  const caps = h('ul', { class: 'alarms', 'data-alarms': 'caps' });
  const stuck = h('ul', { class: 'alarms', 'data-alarms': 'stuck' });
  const deliveries = h('ul', { class: 'alarms', 'data-alarms': 'deliveries' });
  const emails = h('ul', { class: 'alarms', 'data-alarms': 'emails' });
  const ledger = h('ul', { class: 'alarms', 'data-alarms': 'ledger' });
  const element = h(
    'section',
    {},
    h('h1', {}, 'Alarms'),
    h('h2', {}, "Ledger invariants broken (the latest check's)"),
    ledger,
    h('h2', {}, 'Positions past the alarm'),
    caps,
    h('h2', {}, 'Transfers open past their expiration'),
    stuck,
    h('h2', {}, 'Deliveries failing (last 15 minutes)'),
    deliveries,
    h('h2', {}, 'E-mails set aside (refused by the mail server)'),
    emails,
  );
  const refresh = async () => {
    const now = new Date().toISOString();
    const [limits, positions, reserved, received, failing, setAside, broken] = await Promise.all([
      get<Array<{ name: string; currency: string; limit: { type: string; value: number; alarmPercentage: number } }>>('/participants/limits'),
      get<Array<{ name: string; currency: string; value: number }>>('/participants/positions'),
      get<TransferSummary[]>(`/transfers?state=RESERVED&expiredBefore=${now}`),
      get<TransferSummary[]>(`/transfers?state=RECEIVED&expiredBefore=${now}`),
      get<FailingDeliveries[]>('/deliveries/failing'),
      get<SetAsideEmail[]>('/notifications/setAside'),
      ledgerAlarms(),
    ]);
    const pastAlarm = positions.flatMap((position) => {
      const limit = limits.find((candidate) => candidate.name === position.name && candidate.currency === position.currency)?.limit;
      const { share, level } = capUse(position.value, limit);
      return level === 'ok' ? [] : [{ name: position.name, position, limit, share, level }];
    });
    showAlarms(
      caps,
      pastAlarm.map(({ name, position, limit, share, level }) =>
        h(
          'li',
          { class: level },
          participantLink(name),
          ` ${position.currency}: position ${position.value} is ${Math.round(share * 100)}% of its cap ${limit?.value ?? '(none)'}`,
          level === 'breach' ? ' — at or past the cap' : ' — past the alarm',
        ),
      ),
    );
    showAlarms(stuck, [...reserved, ...received].map(stuckTransfer));
    showAlarms(deliveries, failing.map(failingDelivery));
    showAlarms(emails, setAside.map(setAsideEmail));
    showAlarms(ledger, broken);
  };
  return { element, refresh };
}
