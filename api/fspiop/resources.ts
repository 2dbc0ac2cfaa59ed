import type { ResourceRoutes } from './app';

/** The FSPIOP resources this switch serves, one router each. */
export const switchResources: ResourceRoutes[] = [];
