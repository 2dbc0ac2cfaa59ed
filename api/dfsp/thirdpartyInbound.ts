import type { InboundRoute } from '../connector/inbound';

/** The third-party messages (Document 1) a DFSP takes from the switch, each handed to its conversation. */
export const thirdpartyInbound: InboundRoute[] = [];
