import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** Each transfer keeps its ILP packet: the transaction it carries is what the admin API's GET /transactions/{id} shows. */
export class TransferIlpPacket1795000000500 implements MigrationInterface {
  name = 'TransferIlpPacket1795000000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('transfer', new TableColumn({ name: 'ilpPacket', type: 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('transfer', 'ilpPacket');
  }
}
