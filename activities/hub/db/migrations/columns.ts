import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * Column builders shared by the migrations. Money is DECIMAL(38,4) on MySQL and text on SQLite, where
 * DECIMAL would get NUMERIC affinity and turn amounts into doubles.
 */
export function columns(queryRunner: QueryRunner) {
  const isMysql = queryRunner.connection.options.type === 'mysql';
  return {
    isMysql,
    money: (name: string): TableColumnOptions => (isMysql ? { name, type: 'decimal', precision: 38, scale: 4 } : { name, type: 'varchar', length: '64' }),
    id: (name: string): TableColumnOptions => ({ name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
    text: (name: string, length: number, nullable = false): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isNullable: nullable }),
    int: (name: string): TableColumnOptions => ({ name, type: 'int' }),
    flag: (name: string): TableColumnOptions => ({ name, type: 'boolean' }),
    time: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'datetime', precision: 3, isNullable: nullable }),
  };
}
