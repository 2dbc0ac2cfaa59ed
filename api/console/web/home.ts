import type { SchemeGlance } from '../../../activities/shared/contracts/glance.js';
import { get } from './api.js';
import { lineStyle, timeChart, type Line } from './charts.js';
import { h, show } from './dom.js';
import type { View } from './view.js';

const MINUTES = 60;
const HOURS = 6;

/** A chart with its title, and beside it the figures it draws, in words and tables an operator (or a screen reader) reads. */
function figure(title: string, name: string, chart: HTMLElement, figures: HTMLElement): HTMLElement {
  return h('figure', { class: 'glance', 'data-chart': name }, h('h2', {}, title), chart, figures);
}

const table = (name: string, headings: string[], body: HTMLElement) =>
  h('table', { class: 'list', 'data-figures': name }, h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', {}, heading)))), body);

/**
 * The scheme at a glance, the console's home page: payments committed and aborted per minute, aborts by error code, the
 * time from a transfer's POST to its decision (p50, p95), over the last hour; and the positions nearest their Net Debit
 * Cap over the last hours. `?currency=XXX` narrows it to one currency. The charts take new data on each refresh.
 */
export function homeView(query: URLSearchParams): View {
  const currency = query.get('currency') ?? '';
  const path = `/scheme/glance?minutes=${MINUTES}&hours=${HOURS}${currency ? `&currency=${encodeURIComponent(currency)}` : ''}`;
  const glances = [paymentsGlance(), abortsGlance(), latencyGlance(), liquidityGlance()];
  const element = h(
    'section',
    { class: 'home' },
    h('h1', {}, currency ? `The scheme at a glance (${currency})` : 'The scheme at a glance'),
    h('div', { class: 'glances' }, ...glances.map((glance) => glance.element)),
  );
  const refresh = async () => {
    const glance = await get<SchemeGlance>(path);
    for (const { update } of glances) update(glance);
  };
  return { element, refresh };
}

/** One figure of the page, drawn anew from each reading of the scheme. */
interface Glance {
  element: HTMLElement;
  update: (glance: SchemeGlance) => void;
}

function paymentsGlance(): Glance {
  const chart = timeChart(`Payments per minute, committed and aborted, over the last ${MINUTES} minutes`, 'per minute');
  const totals = h('p', { 'data-figures': 'payments' });
  return {
    element: figure('Payments per minute', 'payments', chart.element, totals),
    update: ({ payments: { minutes, committed, aborted, total } }) => {
      chart.update(
        minutes,
        [
          { label: 'committed', ...lineStyle(2) },
          { label: 'aborted', ...lineStyle(1) },
        ],
        [committed, aborted],
      );
      show(totals, `Last ${MINUTES} minutes: ${total.committed} committed, ${total.aborted} aborted.`);
    },
  };
}

function abortsGlance(): Glance {
  const chart = timeChart(`Aborted payments per minute by error code, over the last ${MINUTES} minutes`, 'per minute');
  const codes = h('tbody');
  return {
    element: figure('Aborts by error code', 'aborts', chart.element, table('aborts', ['Error code', `Aborts (${MINUTES} min)`], codes)),
    update: ({ payments: { minutes, abortsByCode } }) => {
      const lines: Line[] = abortsByCode.map((code, index) => ({ label: code.errorCode, ...lineStyle(index) }));
      chart.update(
        minutes,
        lines,
        abortsByCode.map((code) => code.counts),
      );
      show(
        codes,
        abortsByCode.length === 0
          ? h('tr', {}, h('td', { colspan: 2 }, 'No aborts.'))
          : abortsByCode.map((code) => h('tr', { 'data-error-code': code.errorCode }, h('td', {}, code.errorCode), h('td', {}, code.total))),
      );
    },
  };
}

function latencyGlance(): Glance {
  const chart = timeChart(`Time from a payment's POST to its decision, median and 95th percentile per minute, over the last ${MINUTES} minutes`, 'ms');
  const totals = h('p', { 'data-figures': 'latency' });
  return {
    element: figure('Decision latency', 'latency', chart.element, totals),
    update: ({ payments: { minutes, latency: took, latest } }) => {
      chart.update(
        minutes,
        [
          { label: 'p50', ...lineStyle(0) },
          { label: 'p95', ...lineStyle(1) },
        ],
        [took.p50, took.p95],
      );
      show(
        totals,
        latest
          ? `Minute from ${new Date(latest.minute).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}: p50 ${latest.p50} ms, p95 ${latest.p95} ms.`
          : `No decisions in the last ${MINUTES} minutes.`,
      );
    },
  };
}

function liquidityGlance(): Glance {
  const chart = timeChart(`Share of its Net Debit Cap each participant's position used, over the last ${HOURS} hours`, '% of cap');
  const positions = h('tbody');
  return {
    element: figure(
      `Liquidity used (${HOURS} hours)`,
      'liquidity',
      chart.element,
      table('liquidity', ['Participant', 'Currency', 'Position', 'Net Debit Cap', 'Used now'], positions),
    ),
    update: ({ liquidity: { times, positions: shown } }) => {
      chart.update(
        times,
        shown.map((position, index) => ({ label: `${position.participant} ${position.currency}`, ...lineStyle(index) })),
        shown.map((position) => position.used),
      );
      show(
        positions,
        shown.length === 0
          ? h('tr', {}, h('td', { colspan: 5 }, 'No position has a Net Debit Cap.'))
          : shown.map((position) =>
              h(
                'tr',
                { 'data-participant': position.participant },
                h('td', {}, h('a', { href: `#/participants/${encodeURIComponent(position.participant)}` }, position.participant)),
                h('td', {}, position.currency),
                h('td', {}, position.position),
                h('td', {}, position.netDebitCap),
                h('td', {}, `${position.used[position.used.length - 1]}%`),
              ),
            ),
      );
    },
  };
}
