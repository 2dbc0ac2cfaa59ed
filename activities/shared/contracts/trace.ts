/**
 * What the admin API answers about transfers for the operator (GET /transfers, GET /transfers/{id}/trace): the
 * console's contract with the hub. Types only, so the console's browser code shares them.
 */

export interface TransferSummary {
  transferId: string;
  payerFsp: string;
  payeeFsp: string;
  amount: { amount: string; currency: string };
  state: string;
  createdDate: string;
  completedDate?: string;
}

/** A message as a trace shows it. */
export interface TracedMessage {
  conversation: string;
  direction: 'in' | 'out';
  method: string;
  target: string;
  source?: string;
  destination?: string;
  headers: Record<string, string>;
  body?: unknown;
  status?: number;
  error?: string;
  at: string;
  durationMs: number;
}

/** One posting of the ledger a transfer caused, with the account it moved. */
export interface TracedPosting {
  phase: string;
  participant: string;
  ledgerAccountType: string;
  currency: string;
  postedAmount: string;
  reservedAmount: string;
  at: string;
}

/** A conversation a trace takes part in: its workflow, and what it is. */
export interface TracedConversation {
  kind: 'transfer' | 'bulkTransfer' | 'quote' | 'transactionRequest' | 'thirdpartyTransaction';
  id: string;
  workflowId: string;
  state?: string;
}

export interface TransferTrace extends MessagePage {
  transfer?: TransferSummary & { expiration: string; ilpCondition: string; fulfilment?: string; error?: { errorCode: string; errorDescription: string } };
  /** The transaction in its ILP packet, where one can be read. */
  transaction?: unknown;
  /** Each state the transfer reached and when, from its record and the ledger's postings. */
  timeline: Array<{ state: string; at: string }>;
  /** The conversations it belongs to: its `messages` are theirs, in the order the switch saw them. */
  conversations: TracedConversation[];
  journal: TracedPosting[];
}

/**
 * A page of a trace's messages: the first `limit` (100 unless asked, at most 1,000) after `cursor`; `nextCursor`, the
 * `cursor` that reads the next page, is there while more follow.
 */
export interface MessagePage {
  messages: TracedMessage[];
  nextCursor?: string;
}

/** A participant the switch failed to deliver to lately: how often, and the latest failure. */
export interface FailingDeliveries {
  participant: string;
  failures: number;
  latest: { conversation: string; method: string; target: string; error: string; at: string };
}

/**
 * An e-mail to a participant (GET /notifications/setAside) that the mail server refused every time it was tried, and
 * that the hub no longer tries: `to` is the participant whose address it was for, `about` the one it tells of.
 */
export interface SetAsideEmail {
  id: number;
  to: string;
  type: string;
  subject: string;
  about?: string;
  currency?: string;
  attempts: number;
  lastError: string;
  createdDate: string;
  setAsideDate: string;
}

/** Any conversation's messages (GET /conversations/{resource}/{id}/trace); a bulk's, with the transfers it holds. */
export interface ConversationTrace extends MessagePage {
  conversation: string;
  transfers: string[];
}
