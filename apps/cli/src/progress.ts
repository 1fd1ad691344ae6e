/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal: piped or captured output
 * stays clean for machines. Lines logged through it (one per finished attempt) are written whatever
 * stderr and stdout are, above the bar on a terminal: a run whose output goes to a file still says
 * what it is doing.
 */
export interface Progress {
  update(done: number, total: number, note?: string): void;
  log(line: string): void;
  done(): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY)
    return { update: () => undefined, log: (line) => void stream.write(`${line}\n`), done: () => undefined };
  const started = Date.now();
  let last = 0;
  return {
    update(done, total, note) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : 0;
      const secs = ((now - started) / 1000).toFixed(1);
      const line =
        `${label} ` +
        `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${secs}s${note ? ` ${note}` : ''}`;
      stream.write(`\r${line.slice(0, (stream.columns ?? 100) - 1)}\x1b[K`);
    },
    log(line) {
      // Over the bar; the next update draws it again below.
      stream.write(`\r\x1b[K${line}\n`);
      last = 0;
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}
