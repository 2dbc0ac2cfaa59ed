import type { Database } from '../db/database';
import { Participant, ParticipantEndpoint } from '../db/entities';

/** Why a name cannot send or receive: no participant has it. */
export const NOT_A_PARTICIPANT = 'not a known participant';

interface Entry<T> {
  value: T;
  expires: number;
}

/**
 * Participants and their endpoint templates as the switch routes by them, read through a short-lived
 * cache: every request and callback needs them, and they change only by admin action. Only found
 * participants are cached, so a DFSP is usable the moment it is created.
 */
export class ParticipantDirectory {
  private readonly participants = new Map<string, Entry<Participant>>();
  private readonly endpoints = new Map<string, Entry<Map<string, string>>>();

  constructor(
    private readonly db: Database,
    private readonly ttlMs = 1000,
  ) {}

  async participant(name: string): Promise<Participant | undefined> {
    const cached = this.participants.get(name);
    if (cached && cached.expires > Date.now()) return cached.value;
    const found = await this.db.read((manager) => manager.findOneBy(Participant, { name }));
    if (found) this.participants.set(name, { value: found, expires: Date.now() + this.ttlMs });
    return found ?? undefined;
  }

  /** Why `name` cannot take part in a conversation now, or undefined if it can. */
  async unavailable(name: string): Promise<string | undefined> {
    const participant = await this.participant(name);
    if (!participant) return NOT_A_PARTICIPANT;
    if (!participant.isActive) return 'participant is inactive';
    return undefined;
  }

  /**
   * Notes the FSPIOP version `name` has just written in, the version the hub then writes its own messages to it in
   * (`versionFor`). It is stored only when its major version changes, which is all `versionFor` tells apart: a
   * participant's every message costs no write, though Mojaloop's SDK writes some resources in 1.0 and others in 1.1.
   */
  async heard(name: string, version: string): Promise<void> {
    const participant = await this.participant(name);
    if (!participant || (participant.fspiopVersion && majorOf(participant.fspiopVersion) === majorOf(version))) return;
    await this.db.transaction((manager) => manager.update(Participant, { participantId: participant.participantId }, { fspiopVersion: version }));
    participant.fspiopVersion = version;
  }

  /**
   * The version of a message the hub writes itself to `name` (an error, a notification, an answer from its records):
   * `preferred`, the version of the conversation it belongs to, where `name` last wrote in the same major version;
   * else the version `name` last wrote in, which it surely reads. A participant not yet heard from gets `preferred`:
   * the version of the request it was sent in the same conversation.
   */
  async versionFor(name: string, preferred: string): Promise<string> {
    return versionToWrite((await this.participant(name))?.fspiopVersion, preferred);
  }

  async endpoint(name: string, type: string): Promise<string | undefined> {
    const cached = this.endpoints.get(name);
    if (cached && cached.expires > Date.now()) return cached.value.get(type);
    const participant = await this.participant(name);
    if (!participant) return undefined;
    const rows = await this.db.read((manager) => manager.findBy(ParticipantEndpoint, { participantId: participant.participantId }));
    const value = new Map(rows.map((row) => [row.type, row.value]));
    this.endpoints.set(name, { value, expires: Date.now() + this.ttlMs });
    return value.get(type);
  }
}

const majorOf = (version: string) => version.split('.')[0];

/** The rule of `versionFor`: the conversation's version where the addressee speaks its major version, else the addressee's. */
export function versionToWrite(spoken: string | null | undefined, preferred: string): string {
  return !spoken || majorOf(spoken) === majorOf(preferred) ? preferred : spoken;
}
