// The DFSP connector's workflows: one bundle, run by the connector's worker in the DFSP's namespace.
export { exchange } from '../participant/exchange';
export { dfspLinking } from './dfspLinking';
export { dfspConsentRequestRepeat } from './dfspConsentRequestRepeat';
export { dfspThirdpartyTransaction } from './dfspThirdpartyTransaction';
export { dfspAccounts } from './dfspAccounts';
export { dfspTransactionStatus } from './dfspTransactionStatus';
export { dfspUnlinking } from './dfspUnlinking';
export { payeeParty } from './payeeParty';
export { payeeQuote } from './payeeQuote';
export { payeeTransfer } from './payeeTransfer';
export { dfspTransfer } from './dfspTransfer';
