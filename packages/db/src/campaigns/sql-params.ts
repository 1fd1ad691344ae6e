import { jsonbText } from '../jsonb-text';

/** Parameters of one raw statement, each cast to its SQL type. */
export class SqlParams {
  readonly values: unknown[] = [];
  param(value: unknown, type: string): string {
    this.values.push(value === null || value === undefined ? null : type === 'jsonb' ? jsonbText(value) : value);
    return `$${this.values.length}::${type}`;
  }
  /**
   * Timestamps are stored as UTC wall time (Prisma's convention); a zone in the input is ignored by a cast to
   * timestamp.
   */
  now(): string {
    return this.param(new Date().toISOString(), 'timestamp(3)');
  }
}
