import type { FspiopResource, MessageName, Resource } from '../../activities/shared/contracts/conversations';
import type { RoutedMessage } from '../../activities/shared/contracts/followUps';
import type { ReceivedCallback } from '../../activities/shared/contracts/messages';
import type { FspiopRequest } from './headers';

/** Who sent a message, as a follow-up keeps it. */
export const requesterOf = ({ source, destination, version, headers }: FspiopRequest) => ({ source, destination, version, headers });

/** A GET passed on by its FSPIOP-Destination alone, with its query string as sent. */
export function routedGet(resource: FspiopResource, id: string, fspiop: FspiopRequest, querystring = ''): RoutedMessage {
  return { kind: 'routed', resource, id, message: 'get', from: requesterOf(fspiop), ...(querystring ? { query: `?${querystring}` } : {}) };
}

/** A callback (PUT /{resource}/{ID} or …/error) passed on by its FSPIOP-Destination alone, byte for byte. */
export function routedCallback(resource: FspiopResource, message: 'answer' | 'error') {
  return (id: string, callback: ReceivedCallback<unknown>, fspiop: FspiopRequest): RoutedMessage => ({
    kind: 'routed',
    resource,
    id,
    message,
    from: requesterOf(fspiop),
    rawBody: callback.rawBody,
  });
}

/** Any message passed on by its FSPIOP-Destination alone: a POST, PUT, PATCH or DELETE as sent, a GET with its query. */
export function routedMessage(resource: Resource, message: MessageName, id: string, fspiop: FspiopRequest, rawBody?: string): RoutedMessage {
  return { kind: 'routed', resource, id, message, from: requesterOf(fspiop), ...(rawBody === undefined ? {} : { rawBody }) };
}
