import nodemailer, { type Transporter } from 'nodemailer';
import { EntityManager, IsNull } from 'typeorm';
import type { Database } from '../db/database';
import { Notification, Participant, ParticipantEndpoint } from '../db/entities';
import type { Notice } from './notices';

/** SMTP_URL and NOTIFICATION_EMAIL_FROM: the server the hub sends through (off when unset) and its sender address. */
export interface SmtpConfig {
  url: string;
  from: string;
}

/**
 * Queues the e-mails of an event about a participant in the caller's transaction, so they are queued exactly when the
 * change they tell of is made (once per crossing of a threshold, once per adjustment): the participant's, if it
 * registered an address of the notice's type, and the hub operator's, if the hub participant (`hubName`) did, as
 * central-event-processor tells both.
 */
export async function notifyIn(manager: EntityManager, hubName: string, participantId: number, notice: (dfsp: string) => Notice): Promise<void> {
  const participant = await manager.findOneByOrFail(Participant, { participantId });
  const hub = await manager.findOneBy(Participant, { name: hubName });
  const { type, subject, toParticipant, toHub } = notice(participant.name);
  const createdDate = new Date();
  for (const [addressee, body] of [
    [participant.participantId, toParticipant],
    [hub?.participantId, toHub],
  ] as const) {
    if (addressee === undefined || !(await manager.existsBy(ParticipantEndpoint, { participantId: addressee, type }))) continue;
    await manager.insert(Notification, { participantId: addressee, endpointType: type, subject, body, createdDate, sentDate: null });
  }
}

/** The queued e-mails, sent through SMTP by the scheduled `sendNotifications` workflow, each an activity retried until it goes. */
export class Notifications {
  private readonly transport?: Transporter;

  constructor(
    private readonly db: Database,
    private readonly smtp?: SmtpConfig,
  ) {
    this.transport = smtp && nodemailer.createTransport(smtp.url);
  }

  /** The IDs of e-mails not sent yet, oldest first. */
  async pending(limit = 200): Promise<number[]> {
    const rows = await this.db.read((manager) =>
      manager.find(Notification, { where: { sentDate: IsNull() }, order: { id: 'ASC' }, take: limit, select: { id: true } }),
    );
    return rows.map((row) => row.id);
  }

  /**
   * Sends one, to the participant's address of its type as it is now, and marks it sent; one already sent is left
   * alone. An address removed since is nobody to tell: the e-mail is marked sent unsent. A failure of the SMTP server
   * is thrown, for the activity to retry.
   */
  async send(id: number): Promise<void> {
    const notification = await this.db.read((manager) => manager.findOneBy(Notification, { id }));
    if (!notification || notification.sentDate) return;
    if (!this.transport || !this.smtp) throw new Error('SMTP_URL is not set: no e-mail can be sent');
    const endpoint = await this.db.read((manager) =>
      manager.findOneBy(ParticipantEndpoint, { participantId: notification.participantId, type: notification.endpointType }),
    );
    if (endpoint) await this.transport.sendMail({ from: this.smtp.from, to: endpoint.value, subject: notification.subject, text: notification.body });
    await this.db.transaction((manager) => manager.update(Notification, { id }, { sentDate: new Date() }));
  }
}
