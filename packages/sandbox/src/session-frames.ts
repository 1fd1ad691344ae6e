/** The session protocol's frames (see session-protocol.ts): a reply's header read, the environment written. */

/** Longer than any reply header the runner writes (eleven numbers and an id). */
export const MAX_REPLY_HEADER_BYTES = 512;
/** An error message from the runner is one line of an OSError. */
export const MAX_ERROR_BYTES = 64 * 1024;
/** Every field of a reply's header is a decimal number. */
export const NUMBER = /^-?\d{1,16}(\.\d{1,9})?$/;

/** A reply as read: its kind (EXEC, FILE, ...), its header's fields and the payload they announced. */
export interface Reply {
  kind: string;
  fields: string[];
  payload: Buffer;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The environment as a request's payload: `NAME=value\0` for each variable, every name checked. */
export function encodeEnv(env: Record<string, string>): Buffer {
  return Buffer.from(
    Object.entries(env)
      .map(([k, v]) => {
        if (!ENV_NAME.test(k)) throw new Error(`environment variable name ${JSON.stringify(k)} is not valid`);
        if (v.includes('\0')) throw new Error(`environment variable ${k} contains a NUL byte`);
        return `${k}=${v}\0`;
      })
      .join(''),
    'utf8',
  );
}

/** Joins a head and a tail the runner kept, saying how much of the middle was not. */
export function joinHeadTail(kept: Buffer, total: number, head: number): string {
  if (total <= kept.length) return kept.toString('utf8');
  const omitted = total - kept.length;
  return (
    `${kept.subarray(0, head).toString('utf8')}` +
    `\n[... ${omitted} bytes omitted ...]\n` +
    `${kept.subarray(head).toString('utf8')}`
  );
}

/** The payload's length a reply's header announces; undefined for a header the runner never writes. */
export function replySize(kind: string, fields: string[]): number | undefined {
  const n = (i: number) => Number(fields[i]);
  switch (kind) {
    case 'EXEC':
      return fields.length === 9 ? n(7) + n(8) : undefined;
    case 'FILE':
      return fields.length !== 2
        ? undefined
        : fields[0] === '1'
          ? n(1)
          : fields[0] === '0' || fields[0] === '2'
            ? 0
            : undefined;
    case 'STATE':
      return fields.length === 3 && (fields[0] === '0' || fields[0] === '1') ? n(2) : undefined;
    case 'ERR':
      return fields.length === 1 ? n(0) : undefined;
    case 'OK':
      return fields.length === 0 ? 0 : undefined;
    default:
      return undefined;
  }
}
