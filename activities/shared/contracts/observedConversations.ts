import type { MessageName, Resource } from './conversations';
import type { Expiration } from './expiry';

/**
 * A message of a third-party conversation as its observer workflow records it (`linking/<consentRequestId>`,
 * `thirdpartyTransaction/<transactionRequestId>`): what it was, between whom, and the few facts of its body the
 * observer reads. The gateway sends one as the message passes; routing never waits for the observer.
 */
export interface ObservedMessage {
  resource: Resource;
  message: MessageName;
  /** The ID in the message's path, or its body's for a POST. */
  id: string;
  from: string;
  to?: string;
  /** When the switch took the message (ISO 8601). */
  at: string;
  facts: ObservedFacts;
}

/** What an observer reads from a message's body. */
export interface ObservedFacts {
  /** The state the message reports: a consent's credential status or state, a transaction request's state. */
  state?: string;
  consentId?: string;
  /** Until when the PISP waits for the outcome of its third-party transaction request. */
  expiration?: Expiration;
  currency?: string;
  /** The payee's FSP of a third-party transaction request. */
  payeeFsp?: string;
  /** An authorization's ACCEPTED or REJECTED. */
  responseType?: string;
  /** An error callback's errorCode. */
  errorCode?: string;
}

/** Where an observed conversation stands, as its observer's query answers. */
export interface ObservedConversation {
  state: string;
  /** When it is marked EXPIRED if it has not ended (ISO 8601). */
  deadline: string;
  /** The messages in the order they arrived; of a resource's GETs, only the first. */
  messages: ObservedMessage[];
  /** The GETs after each resource's first, counted and not kept (a PISP may poll). */
  repeatedGets: number;
}
