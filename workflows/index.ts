export { healthCheck } from './healthCheck';
export { transfer } from './transfer';
export { quote } from './quote';
export { reservationSweep } from './reservationSweep';
