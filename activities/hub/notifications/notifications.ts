import nodemailer, { type Transporter } from 'nodemailer';
import { EntityManager, IsNull } from 'typeorm';
import type { Database } from '../db/database';
import { Notification, ParticipantEndpoint } from '../db/entities';

/** Document 3's e-mail endpoints: where a participant hears of its limits and of settlement moving its position. */
export type NotificationType = 'NET_DEBIT_CAP_THRESHOLD_BREACH_EMAIL' | 'NET_DEBIT_CAP_ADJUSTMENT_EMAIL' | 'SETTLEMENT_TRANSFER_POSITION_CHANGE_EMAIL';

/** SMTP_URL and NOTIFICATION_EMAIL_FROM: the server the hub sends through (off when unset) and its sender address. */
export interface SmtpConfig {
  url: string;
  from: string;
}

/**
 * Queues an e-mail in the caller's transaction, so it is queued exactly when the change it tells of is made (once per
 * crossing of a threshold, once per adjustment), if the participant registered an address of that type.
 */
export async function notifyIn(manager: EntityManager, participantId: number, type: NotificationType, subject: string, body: string): Promise<void> {
  if (!(await manager.existsBy(ParticipantEndpoint, { participantId, type }))) return;
  await manager.insert(Notification, { participantId, endpointType: type, subject, body, createdDate: new Date(), sentDate: null });
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
