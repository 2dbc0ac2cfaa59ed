import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Custom search attributes let an operator find any conversation in the Temporal UI
// ("PayerFsp = 'dfspa' AND State = 'COMMITTED'"). The dev server registers them at start;
// a production cluster needs `temporal operator search-attribute create` for each.
export const PayerFsp = defineSearchAttributeKey('PayerFsp', SearchAttributeType.KEYWORD);
export const PayeeFsp = defineSearchAttributeKey('PayeeFsp', SearchAttributeType.KEYWORD);
export const State = defineSearchAttributeKey('State', SearchAttributeType.KEYWORD);
export const Currency = defineSearchAttributeKey('Currency', SearchAttributeType.KEYWORD);

/** The parties and the consent of a third-party conversation (linking, third-party transaction, consent). */
export const Pisp = defineSearchAttributeKey('Pisp', SearchAttributeType.KEYWORD);
export const Dfsp = defineSearchAttributeKey('Dfsp', SearchAttributeType.KEYWORD);
export const ConsentId = defineSearchAttributeKey('ConsentId', SearchAttributeType.KEYWORD);

export const customSearchAttributes = [PayerFsp, PayeeFsp, State, Currency, Pisp, Dfsp, ConsentId];
