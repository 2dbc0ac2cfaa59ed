/**
 * The API a deployment speaks with participants (API_TYPE), one per deployment as in Mojaloop's switch: FSPIOP, or
 * ISO 20022 for the resources that have an ISO 20022 form. Inside, the hub keeps its FSPIOP model either way.
 */
export const API_TYPES = ['fspiop', 'iso20022'] as const;
export type ApiType = (typeof API_TYPES)[number];

/**
 * The resources ISO 20022 mode carries as ISO 20022 messages (acmt.024; pacs.081 and pacs.082; pacs.008 and pacs.002),
 * as FSPIOP 2.0's ISO 20022 document defines them; every other resource stays FSPIOP in that mode.
 */
export const ISO20022_RESOURCES = ['parties', 'quotes', 'transfers'] as const;
export type Iso20022Resource = (typeof ISO20022_RESOURCES)[number];

/** The one FSPIOP version whose ISO 20022 form exists. */
export const ISO20022_VERSION = '2.0';

/**
 * The resources whose messages carry the ISO 20022 media type in that mode: those with an ISO 20022 form, and
 * `/participants`, whose bodies stay FSPIOP, as Mojaloop's services check and send them (the account lookup service
 * runs its header validation in ISO 20022 mode on both its resources, and its callbacks carry its mode's media type).
 */
export const ISO20022_MEDIA_RESOURCES = ['participants', ...ISO20022_RESOURCES] as const;
export type Iso20022MediaResource = (typeof ISO20022_MEDIA_RESOURCES)[number];

/** Whether `resource`'s messages are ISO 20022 in a deployment of `apiType` (undefined: the default, FSPIOP). */
export function speaksIso20022(apiType: ApiType | undefined, resource: string): resource is Iso20022Resource {
  return apiType === 'iso20022' && (ISO20022_RESOURCES as readonly string[]).includes(resource);
}

/** Whether `resource`'s messages carry the ISO 20022 media type in a deployment of `apiType`, its body ISO 20022 or not. */
export function namesIso20022(apiType: ApiType | undefined, resource: string): resource is Iso20022MediaResource {
  return apiType === 'iso20022' && (ISO20022_MEDIA_RESOURCES as readonly string[]).includes(resource);
}

/** The name in `application/vnd.interoperability.{name}+json` of a resource's messages in ISO 20022 mode. */
export const iso20022MediaTypeName = (resource: Iso20022MediaResource) => `iso20022.${resource}`;

/** What an ISO 20022 message is to its resource: the FSPIOP operation it stands for. */
export type Iso20022Operation = 'post' | 'put' | 'putError' | 'patch';
