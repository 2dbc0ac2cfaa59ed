/** Names shared by the worker and the clients (gateways, launcher, tests). */
export const DEFAULT_TASK_QUEUE = 'mojaloop-hub';
