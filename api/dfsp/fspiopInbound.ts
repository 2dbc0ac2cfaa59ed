import type { InboundRoute } from '../connector/inbound';

/** The FSPIOP messages (Document 2) a DFSP takes from the switch as payer and as payee. */
export const fspiopInbound: InboundRoute[] = [];
