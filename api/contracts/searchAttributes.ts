import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Custom search attributes let an operator find any conversation in the Temporal UI
// ("PayerFsp = 'dfspa' AND State = 'COMMITTED'"). The dev server registers them at start;
// a production cluster needs `temporal operator search-attribute create` for each.
export const PayerFsp = defineSearchAttributeKey('PayerFsp', SearchAttributeType.KEYWORD);
export const PayeeFsp = defineSearchAttributeKey('PayeeFsp', SearchAttributeType.KEYWORD);
export const State = defineSearchAttributeKey('State', SearchAttributeType.KEYWORD);
export const Currency = defineSearchAttributeKey('Currency', SearchAttributeType.KEYWORD);

export const customSearchAttributes = [PayerFsp, PayeeFsp, State, Currency];
