// The PISP connector's workflows: one bundle, run by the connector's worker in the PISP's namespace.
export { exchange } from '../participant/exchange';
export { pispLinking } from './pispLinking';
export { pispTransaction } from './pispTransaction';
export { pispUnlinking } from './pispUnlinking';
