import type { MessageName, Resource } from './conversations';

/**
 * A message of a third-party conversation as its follower workflow records it (`linking/<consentRequestId>`,
 * `thirdpartyTransaction/<transactionRequestId>`): what it was, between whom, and the few facts of its body the
 * follower reads. The gateway sends one as the message passes; routing never waits for the follower.
 */
export interface FollowedMessage {
  resource: Resource;
  message: MessageName;
  /** The ID in the message's path, or its body's for a POST. */
  id: string;
  from: string;
  to?: string;
  /** When the switch took the message (ISO 8601). */
  at: string;
  facts: FollowedFacts;
}

/** What a follower reads from a message's body. */
export interface FollowedFacts {
  /** The state the message reports: a consent's credential status or state, a transaction request's state. */
  state?: string;
  consentId?: string;
  /** Until when the PISP waits for the outcome of its third-party transaction request. */
  expiration?: string;
  currency?: string;
  /** The payee's FSP of a third-party transaction request. */
  payeeFsp?: string;
  /** An authorization's ACCEPTED or REJECTED. */
  responseType?: string;
  /** An error callback's errorCode. */
  errorCode?: string;
}

/** Where a followed conversation stands, as its follower's query answers. */
export interface FollowedConversation {
  state: string;
  /** When it is marked EXPIRED if it has not ended (ISO 8601). */
  deadline: string;
  /** The messages in the order they arrived; of a resource's GETs, only the first. */
  messages: FollowedMessage[];
  /** The GETs after each resource's first, counted and not kept (a PISP may poll). */
  repeatedGets: number;
}
