// The DFSP connector's workflows: one bundle, run by the connector's worker in the DFSP's namespace.
export { exchange } from '../participant/exchange';
export { dfspLinking } from './dfspLinking';
export { dfspConsentRequestRepeat } from './thirdpartyConsentRequestRepeat';
export { dfspThirdpartyTransaction } from './dfspThirdpartyTransaction';
export { dfspAccounts } from './thirdpartyAccounts';
export { dfspTransactionStatus } from './thirdpartyTransactionStatus';
export { dfspUnlinking } from './thirdpartyUnlinking';
export { payeeParty } from './payeeParty';
export { payeeQuote } from './payeeQuote';
export { payeeTransfer } from './payeeTransfer';
export { dfspTransfer } from './dfspTransfer';
