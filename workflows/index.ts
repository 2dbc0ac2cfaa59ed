export { healthCheck } from './healthCheck';
