import { addressOf, FspiopResource } from '../../shared/contracts/conversations';
import { errorInformation, FspiopErrorName } from '../../shared/contracts/errors';
import type { CallbackSender } from '../delivery/callbacks';

/** What a conversation's record keeps of the last answer it passed to the requester. */
export interface RecordedAnswer {
  requestHash: string;
  /** The answering participant's headers (JSON); null when the hub made the answer itself (an error). */
  responseHeaders: string | null;
  responseBody: string | null;
}

/** A conversation whose answers the switch keeps: its resource, its ID, and how messages name and miss it. */
export interface RecordedConversation {
  resource: FspiopResource;
  id: string;
  noun: string;
  idNotFound: FspiopErrorName;
}

/**
 * Answers from a conversation's record after its workflow ended, the same for every conversation that keeps one:
 * the stored answer sent again byte for byte (a participant's with its own headers, the hub's own error made anew by
 * the hub), and the duplicate rule (spec general rule 3) for a POST that repeats the conversation's ID.
 */
export class RecordedAnswers {
  constructor(private readonly sender: CallbackSender) {}

  resend(conversation: RecordedConversation, to: string, record: RecordedAnswer, isError: boolean, version: string): Promise<void> {
    const { resource, id } = conversation;
    const from = record.responseHeaders ? { headers: JSON.parse(record.responseHeaders) } : { fromHub: { resource, version } };
    return this.sender.send({ to, ...addressOf(resource, isError ? 'error' : 'answer', id), method: 'PUT', ...from, rawBody: record.responseBody! });
  }

  /** A repeated POST: 32xx if the record is gone, 3106 if the body differs, else the stored answer again (if any yet). */
  async repeated(
    conversation: RecordedConversation,
    record: RecordedAnswer | null,
    requestHash: string,
    requester: { source: string; version: string },
    resend: () => Promise<void>,
  ): Promise<void> {
    if (!record) return this.notFound(conversation, requester);
    if (record.requestHash !== requestHash) {
      const modified = errorInformation('modifiedRequest', `${conversation.noun} ${conversation.id} exists with different details`);
      return this.sender.sendHubError(requester.source, conversation.resource, conversation.id, requester.version, modified);
    }
    if (record.responseBody) await resend();
  }

  notFound({ resource, id, noun, idNotFound }: RecordedConversation, requester: { source: string; version: string }): Promise<void> {
    return this.sender.sendHubError(requester.source, resource, id, requester.version, errorInformation(idNotFound, `${noun} ${id} not found`));
  }
}
