export { healthCheck } from './healthCheck';
export { bulkQuote } from './hub/bulkQuote';
export { bulkTransfer } from './hub/bulkTransfer';
export { followUp } from './hub/followUp';
export { quote } from './hub/quote';
export { reservationSweep } from './hub/reservationSweep';
export { transactionRequest } from './hub/transactionRequest';
export { transfer } from './hub/transfer';
