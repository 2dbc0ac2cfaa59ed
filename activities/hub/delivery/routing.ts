import type { Logger } from 'pino';
import { addressOf } from '../../shared/contracts/conversations';
import type { RoutedMessage } from '../../shared/contracts/followUps';
import { HubError } from '../../shared/platform/hubError';
import type { CallbackSender } from './callbacks';
import type { ParticipantDirectory } from './directory';

const METHODS = { request: 'POST', get: 'GET', answer: 'PUT', error: 'PUT', patch: 'PATCH', delete: 'DELETE' } as const;

/**
 * Messages the switch passes on by their FSPIOP-Destination alone, as Mojaloop's transaction-requests service passes
 * on every message: the destination gets the sender's headers and body unchanged. When that cannot be done (no
 * destination named, none the switch can use, its endpoint missing or refusing), the sender of a GET or an answer
 * gets the hub's error callback; an error callback that cannot be passed on is only logged, never answered.
 * Mojaloop's thirdparty-api-svc reports a failed third-party message to its sender the same way.
 */
export class Routing {
  constructor(
    private readonly directory: ParticipantDirectory,
    private readonly sender: CallbackSender,
    private readonly log: Logger,
  ) {}

  /** One attempt: it runs as an activity, and Temporal's retry policy makes the further ones (network, 5xx). */
  async route(routed: RoutedMessage): Promise<void> {
    const { resource, id, message, from } = routed;
    try {
      await this.sender.send({
        to: await this.destination(routed),
        ...addressOf(resource, message, id, routed.query),
        method: METHODS[message],
        headers: from.headers,
        rawBody: routed.rawBody,
      });
    } catch (error) {
      if (!(error instanceof HubError)) throw error;
      if (message === 'error') {
        this.log.warn({ resource, id, from: from.source, err: error.message }, 'error callback could not be passed on; dropped');
        return;
      }
      await this.sender.sendHubError(from.source, resource, id, from.version, error.errorInformation);
    }
  }

  private async destination({ from }: RoutedMessage): Promise<string> {
    // Mojaloop's hub looks the destination's endpoint up and reports any failure as 1001; a missing header is the
    // sender's own mistake, which the switch names (3100) instead of reporting an endpoint for "undefined".
    if (!from.destination) throw new HubError('validationError', 'FSPIOP-Destination is required: the switch routes this message by it');
    const problem = await this.directory.unavailable(from.destination);
    if (problem) throw new HubError('destinationCommunicationError', `FSPIOP-Destination ${from.destination}: ${problem}`);
    return from.destination;
  }
}
