import type { Database } from '../db/database';
import { Participant, ParticipantEndpoint } from '../db/entities';

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
    if (!participant) return 'not a known participant';
    if (!participant.isActive) return 'participant is inactive';
    return undefined;
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
