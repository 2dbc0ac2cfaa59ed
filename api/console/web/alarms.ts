import type { FailingDeliveries, TransferSummary } from '../../contracts/trace.js';
import { get } from './api.js';
import { h, money, show, when } from './dom.js';
import { capUse } from './participants.js';
import type { View } from './view.js';

/**
 * What needs the operator now: participants past their Net Debit Cap's alarm (or the cap), transfers still open past
 * their expiration, and participants the switch keeps failing to deliver to; each linked to where to look.
 */
export function alarmsView(): View {
  const caps = h('ul', { class: 'alarms', 'data-alarms': 'caps' });
  const stuck = h('ul', { class: 'alarms', 'data-alarms': 'stuck' });
  const deliveries = h('ul', { class: 'alarms', 'data-alarms': 'deliveries' });
  const element = h(
    'section',
    {},
    h('h1', {}, 'Alarms'),
    h('h2', {}, 'Positions past the alarm'),
    caps,
    h('h2', {}, 'Transfers open past their expiration'),
    stuck,
    h('h2', {}, 'Deliveries failing (last 15 minutes)'),
    deliveries,
  );
  const refresh = async () => {
    const now = new Date().toISOString();
    const [limits, positions, reserved, received, failing] = await Promise.all([
      get<Array<{ name: string; currency: string; limit: { type: string; value: number; alarmPercentage: number } }>>('/participants/limits'),
      get<Array<{ name: string; currency: string; value: number }>>('/participants/positions'),
      get<TransferSummary[]>(`/transfers?state=RESERVED&expiredBefore=${now}`),
      get<TransferSummary[]>(`/transfers?state=RECEIVED&expiredBefore=${now}`),
      get<FailingDeliveries[]>('/deliveries/failing'),
    ]);
    const pastAlarm = positions.flatMap((position) => {
      const limit = limits.find((candidate) => candidate.name === position.name && candidate.currency === position.currency)?.limit;
      const { share, level } = capUse(position.value, limit);
      return level === 'ok' ? [] : [{ name: position.name, position, limit, share, level }];
    });
    show(
      caps,
      pastAlarm.length === 0
        ? h('li', {}, 'None.')
        : pastAlarm.map(({ name, position, limit, share, level }) =>
            h(
              'li',
              { class: level },
              h('a', { href: `#/participants/${encodeURIComponent(name)}` }, name),
              ` ${position.currency}: position ${position.value} is ${Math.round(share * 100)}% of its cap ${limit?.value ?? '(none)'}`,
              level === 'breach' ? ' — at or past the cap' : ' — past the alarm',
            ),
          ),
    );
    const open = [...reserved, ...received];
    show(
      stuck,
      open.length === 0
        ? h('li', {}, 'None.')
        : open.map((transfer) =>
            h(
              'li',
              {},
              h('a', { href: `#/transfers/${transfer.transferId}` }, transfer.transferId),
              ` ${transfer.state}: ${money(transfer.amount.amount, transfer.amount.currency)} from ${transfer.payerFsp} to ${transfer.payeeFsp}, since ${when(transfer.createdDate)}`,
            ),
          ),
    );
    show(
      deliveries,
      failing.length === 0
        ? h('li', {}, 'None.')
        : failing.map((failure) =>
            h(
              'li',
              {},
              h('a', { href: `#/participants/${encodeURIComponent(failure.participant)}` }, failure.participant),
              ` ${failure.failures} failed: latest ${failure.latest.method} ${failure.latest.target} — ${failure.latest.error} (${when(failure.latest.at)}) `,
              failure.latest.conversation.startsWith('transfers/') &&
                h('a', { href: `#/transfers/${failure.latest.conversation.slice('transfers/'.length)}` }, 'trace'),
            ),
          ),
    );
  };
  return { element, refresh };
}
