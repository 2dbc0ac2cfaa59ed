export { healthCheck } from './healthCheck';
export { bulkTransfer } from './hub/bulkTransfer';
export { followUp } from './hub/followUp';
export { quote } from './hub/quote';
export { reservationSweep } from './hub/reservationSweep';
export { transfer } from './hub/transfer';
