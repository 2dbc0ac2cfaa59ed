import type {
  ConversationTrace,
  MessagePage,
  TracedConversation,
  TracedMessage,
  TransferSummary,
  TransferTrace,
} from '../../../activities/shared/contracts/trace.js';
import { call, get, type Answer } from './api.js';
import { h, json, money, show, when } from './dom.js';
import { searchForm, type SearchField } from './searchForm.js';
import type { View } from './view.js';

/** Where a conversation opens in the Temporal UI, if the hub knows where that UI is. */
export type WorkflowLink = (workflowId: string) => string | undefined;

const SEARCH_FIELDS: SearchField[] = [
  ['transferId', 'Transfer ID'],
  ['payerFsp', 'Payer'],
  ['payeeFsp', 'Payee'],
  ['state', 'State'],
  ['currency', 'Currency'],
  ['fromDateTime', 'From', 'datetime-local'],
  ['toDateTime', 'To', 'datetime-local'],
  ['traceId', 'Trace ID (traceparent)'],
];

/** The transfer search: by ID, payer, payee, state, currency, time, or a participant's trace ID; newest first. */
export function transfersView(query: URLSearchParams): View {
  const results = h('tbody');
  const form = searchForm('transfers', SEARCH_FIELDS, query, { state: ['', 'RECEIVED', 'RESERVED', 'COMMITTED', 'ABORTED'] });
  const element = h(
    'section',
    {},
    h('h1', {}, 'Transfers'),
    form,
    h(
      'table',
      { class: 'list' },
      h('thead', {}, h('tr', {}, ...['Transfer', 'Payer', 'Payee', 'Amount', 'State', 'Created'].map((title) => h('th', {}, title)))),
      results,
    ),
  );
  const refresh = async () => {
    const found = await get<TransferSummary[]>(`/transfers?${query}`);
    show(
      results,
      found.length === 0
        ? h('tr', {}, h('td', { colspan: 6 }, 'No transfer matches.'))
        : found.map((transfer) =>
            h(
              'tr',
              { 'data-transfer': transfer.transferId },
              h('td', {}, h('a', { href: `#/transfers/${transfer.transferId}` }, transfer.transferId)),
              h('td', {}, transfer.payerFsp),
              h('td', {}, transfer.payeeFsp),
              h('td', {}, money(transfer.amount.amount, transfer.amount.currency)),
              h('td', { class: `state ${transfer.state}` }, transfer.state),
              h('td', {}, when(transfer.createdDate)),
            ),
          ),
    );
  };
  return { element, refresh };
}

/**
 * One transfer's trace: its states, every message of it and of the conversations it belongs to (its quote, its bulk,
 * the transaction request or third-party transaction it answers) in the order the switch saw them, with headers,
 * bodies and timings; the ledger postings it caused; links to each conversation's workflow.
 */
export function traceView(transferId: string, link: WorkflowLink): View {
  const element = h('section', { class: 'trace' }, h('h1', {}, `Transfer ${transferId}`), h('p', {}, 'Loading…'));
  // Drawn again only when it changed, so the messages the operator opened stay open.
  let drawn: string | undefined;
  const pages = new MessagePages<TransferTrace>(`/transfers/${encodeURIComponent(transferId)}/trace`);
  const refresh = async () => {
    const answer = await pages.read();
    const seen = JSON.stringify(answer);
    if (seen === drawn) return;
    drawn = seen;
    if (answer.status >= 400) {
      show(element, h('h1', {}, `Transfer ${transferId}`), h('p', { class: 'outcome' }, 'The switch knows no such transfer.'));
      return;
    }
    const trace = answer.body;
    const start = trace.messages[0] ? Date.parse(trace.messages[0].at) : 0;
    show(
      element,
      h('h1', {}, `Transfer ${transferId}`),
      trace.transfer && transferSummary(trace.transfer),
      h('h2', {}, 'States'),
      h(
        'ol',
        { class: 'timeline' },
        trace.timeline.map((step) => h('li', {}, h('b', {}, step.state), ` ${when(step.at)}`)),
      ),
      h('h2', {}, 'Conversations'),
      h(
        'ul',
        { class: 'conversations' },
        trace.conversations.map((conversation) => conversationItem(conversation, link)),
      ),
      messageList(trace, start, () => pages.more(refresh)),
      h('h2', {}, 'Ledger postings'),
      journalTable(trace.journal),
      trace.transaction !== undefined && [h('h2', {}, 'The transaction in its ILP packet'), json(trace.transaction)],
    );
  };
  return { element, refresh };
}

/** The transfer in one line: its amount, payer and payee, state (and error), expiration. */
function transferSummary(transfer: NonNullable<TransferTrace['transfer']>): HTMLElement {
  return h(
    'p',
    { class: 'summary' },
    `${money(transfer.amount.amount, transfer.amount.currency)} from ${transfer.payerFsp} to ${transfer.payeeFsp}: `,
    h('b', { class: `state ${transfer.state}`, 'data-state': transfer.state }, transfer.state),
    transfer.error ? ` (${transfer.error.errorCode} ${transfer.error.errorDescription})` : '',
    ` — expires ${when(transfer.expiration)}`,
  );
}

/** A conversation the transfer belongs to: its page in the console (but the transfer's own), and its workflow. */
function conversationItem(conversation: TracedConversation, link: WorkflowLink): HTMLElement {
  const url = link(conversation.workflowId);
  const page = conversation.kind === 'transfer' ? undefined : `#/conversations/${CONVERSATION_RESOURCES[conversation.kind]}/${conversation.id}`;
  return h(
    'li',
    {},
    page ? h('a', { href: page }, `${conversation.kind} ${conversation.id}`) : `${conversation.kind} ${conversation.id}`,
    `${conversation.state ? ` (${conversation.state})` : ''} — `,
    url ? h('a', { href: url, target: '_blank', rel: 'noopener' }, `${conversation.workflowId} in the Temporal UI`) : h('code', {}, conversation.workflowId),
  );
}

/** The ledger postings the transfer caused. */
function journalTable(journal: TransferTrace['journal']): HTMLElement {
  return h(
    'table',
    { class: 'list journal' },
    h('thead', {}, h('tr', {}, ...['Phase', 'Participant', 'Account', 'Posted', 'Reserved', 'At'].map((title) => h('th', {}, title)))),
    h(
      'tbody',
      {},
      journal.map((posting) =>
        h(
          'tr',
          {},
          h('td', {}, posting.phase),
          h('td', {}, posting.participant),
          h('td', {}, `${posting.ledgerAccountType} ${posting.currency}`),
          h('td', {}, posting.postedAmount),
          h('td', {}, posting.reservedAmount),
          h('td', {}, when(posting.at)),
        ),
      ),
    ),
  );
}

/** The resource whose messages make up each kind of conversation. */
const CONVERSATION_RESOURCES: Record<TracedConversation['kind'], string> = {
  transfer: 'transfers',
  bulkTransfer: 'bulkTransfers',
  quote: 'quotes',
  transactionRequest: 'transactionRequests',
  thirdpartyTransaction: 'thirdpartyRequests/transactions',
};

/** Any conversation's messages (a quote's, a bulk's, a transaction request's, a third-party transaction's), as a transfer's are shown. */
export function conversationView(resource: string, id: string): View {
  const element = h('section', { class: 'trace' }, h('h1', {}, `${resource} ${id}`), h('p', {}, 'Loading…'));
  let drawn: string | undefined;
  const pages = new MessagePages<ConversationTrace>(`/conversations/${resource}/${encodeURIComponent(id)}/trace`);
  const refresh = async () => {
    const answer = await pages.read();
    const seen = JSON.stringify(answer);
    if (seen === drawn) return;
    drawn = seen;
    if (answer.status >= 400) {
      show(element, h('h1', {}, `${resource} ${id}`), h('p', { class: 'outcome' }, 'The switch saw no message of it.'));
      return;
    }
    const trace = answer.body;
    const start = Date.parse(trace.messages[0].at);
    show(
      element,
      h('h1', {}, `${resource} ${id}`),
      trace.transfers.length > 0 && [
        h('h2', {}, `Its transfers (${trace.transfers.length})`),
        h(
          'ul',
          { class: 'transfers' },
          trace.transfers.map((transferId) => h('li', {}, h('a', { href: `#/transfers/${transferId}` }, transferId))),
        ),
      ],
      messageList(trace, start, () => pages.more(refresh)),
    );
  };
  return { element, refresh };
}

/**
 * A trace's messages as far as the operator has read them: the API gives them a page at a time, and each "More
 * messages" adds the next page to those read again at every refresh.
 */
class MessagePages<T extends MessagePage> {
  private pages = 1;

  constructor(private readonly path: string) {}

  async read(): Promise<Answer<T>> {
    const first = await call<T>('GET', this.path);
    if (first.status >= 400) return first;
    const messages = [...first.body.messages];
    let next = first.body.nextCursor;
    for (let page = 1; page < this.pages && next; page++) {
      const more = await get<T>(`${this.path}?cursor=${encodeURIComponent(next)}`);
      messages.push(...more.messages);
      next = more.nextCursor;
    }
    return { status: first.status, body: { ...first.body, messages, nextCursor: next } };
  }

  more(refresh: () => Promise<void>): Promise<void> {
    this.pages++;
    return refresh();
  }
}

/** The messages read so far, and while more follow, a button that reads the next page. */
function messageList(page: MessagePage, start: number, more: () => Promise<void>): HTMLElement[] {
  return [
    h('h2', {}, `Messages (${page.messages.length}${page.nextCursor ? ', more follow' : ''})`),
    h(
      'ol',
      { class: 'messages' },
      page.messages.map((message) => messageItem(message, start)),
    ),
    ...(page.nextCursor ? [h('button', { type: 'button', class: 'more', onclick: more }, 'More messages')] : []),
  ];
}

function messageItem(message: TracedMessage, start: number): HTMLElement {
  const offset = Date.parse(message.at) - start;
  const arrow = message.direction === 'in' ? `${message.source ?? '?'} → switch` : `switch → ${message.destination ?? '?'}`;
  return h(
    'li',
    { class: `message ${message.direction}${message.error ? ' failed' : ''}`, 'data-direction': message.direction },
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'offset' }, `+${offset} ms`),
        ` ${arrow}: `,
        h('b', {}, `${message.method} ${message.conversation}`),
        ` → ${message.status ?? 'no answer'} in ${message.durationMs} ms`,
        message.error ? h('span', { class: 'error' }, ` ${message.error}`) : '',
      ),
      h('p', {}, h('code', {}, message.target)),
      h('h3', {}, 'Headers'),
      json(message.headers),
      message.body !== undefined && [h('h3', {}, 'Body'), json(message.body)],
    ),
  );
}
