import { describe, expect, it } from 'vitest';
import { MAX_PREAMBLE_BYTES } from '../src/batch-output-reader';
import { BatchOutputReader, buildBatch, parseBatch } from '../src/batch-script';
import { hostRunner } from '../src/step-runner';
import type { BatchRequest } from '../src/types';

const request: BatchRequest = {
  groups: [
    {
      stopOnFailure: true,
      steps: [
        { id: 'a', command: 'echo hi' },
        { id: 'b', command: 'false' },
      ],
    },
    { stopOnFailure: false, steps: [{ id: 'p', command: 'cat f', maxOutputBytes: 4 }] },
  ],
};

function frame(key: string, rc: number, out: string, err: string, hasRc = 1): Buffer {
  return Buffer.concat([
    Buffer.from(
      `@@GBSTEP ${key} ${rc} ${hasRc} 0 1.000000 1.010000\n${Buffer.byteLength(out)}\n${Buffer.byteLength(err)}\n`,
    ),
    Buffer.from(out),
    Buffer.from(err),
  ]);
}
const END = Buffer.from('@@GBEND\n');
const raw = (stdout: Buffer) => ({ stdout, stderr: Buffer.alloc(0), exitCode: 0, hostTimedOut: false, durationMs: 5 });

describe('batch framing', () => {
  it('reads records by byte counts, so output that looks like a frame stays output', () => {
    const forged = '@@GBSTEP 1.0 0 1 0 0 0\n0\n0\n';
    const r = parseBatch(
      request,
      raw(Buffer.concat([frame('0.0', 0, forged, ''), frame('0.1', 1, '', 'no'), frame('1.0', 0, 'abcde', ''), END])),
    );
    expect(r.groups[0]!.map((x) => [x.id, x.exitCode, x.stdout])).toEqual([
      ['a', 0, forged],
      ['b', 1, ''],
    ]);
    expect(r.stoppedAt).toEqual([1, undefined]);
    expect(r.groups[1]![0]).toMatchObject({ stdout: 'abcd', truncated: true, durationMs: 10 });
    expect(r.aborted).toBeUndefined();
  });

  it('reports a cut-off batch instead of inventing records', () => {
    const whole = frame('0.0', 0, 'hello', '');
    const r = parseBatch(request, raw(whole.subarray(0, whole.length - 2)));
    expect(r.groups[0]).toEqual([]);
    expect(r.aborted).toMatch(/ended early/);
  });

  it('says when a batch stopped between records, so an emptied or killed sandbox is never silent', () => {
    const r = parseBatch(request, { ...raw(frame('0.0', 0, 'hello', '')), exitCode: 137 });
    expect(r.groups[0]!.map((x) => x.id)).toEqual(['a']);
    expect(r.aborted).toMatch(/stopped before its end \(exit 137/);
    expect(parseBatch(request, raw(Buffer.alloc(0))).aborted).toMatch(/stopped before its end/);
  });

  it('hands over each record as soon as its frame is complete, however the output is cut into chunks', () => {
    const whole = Buffer.concat([
      frame('0.0', 0, 'hi', ''),
      frame('0.1', 1, '', 'no'),
      frame('1.0', 0, 'abcde', ''),
      END,
    ]);
    const whole2 = parseBatch(request, raw(whole));
    const seen: [number, string][] = [];
    const reader = new BatchOutputReader(request, (group, record) => seen.push([group, record.id]));
    const first = frame('0.0', 0, 'hi', '').length;
    for (let i = 0; i < whole.length; i++) {
      reader.push(whole.subarray(i, i + 1));
      // The first record is told the moment its last byte arrives, not at the batch's end.
      if (i === first - 2) expect(seen).toEqual([]);
      if (i === first - 1) expect(seen).toEqual([[0, 'a']]);
    }
    expect(seen).toEqual([
      [0, 'a'],
      [0, 'b'],
      [1, 'p'],
    ]);
    expect(reader.groups).toEqual(whole2.groups);
    expect(reader.ended).toBe(true);
  });

  it('takes the records read as the output arrived, unless the output kept is not what was read', () => {
    // A 3 MB frame in 64 KiB chunks, as a build's archive arrives: read whole, told once.
    const big = 'x'.repeat(3 * 1024 * 1024);
    const long: BatchRequest = {
      groups: [
        {
          stopOnFailure: false,
          steps: [
            { id: 'archive', command: 'tar', maxOutputBytes: 8 * 1024 * 1024 },
            { id: 'after', command: 'true' },
          ],
        },
      ],
    };
    const whole = Buffer.concat([frame('0.0', 0, big, ''), frame('0.1', 0, 'done', ''), END]);
    const told: string[] = [];
    const streamed = new BatchOutputReader(long, (_, record) => told.push(`${record.id}:${record.stdout.length}`));
    for (let at = 0; at < whole.length; at += 64 * 1024) streamed.push(whole.subarray(at, at + 64 * 1024));
    expect(told).toEqual([`archive:${big.length}`, 'after:4']);
    const reused = parseBatch(long, raw(whole), streamed);
    expect(reused.groups).toBe(streamed.groups);
    expect(reused.groups[0]!.map((r) => [r.id, r.stdout.length])).toEqual([
      ['archive', big.length],
      ['after', 4],
    ]);
    expect(reused.aborted).toBeUndefined();
    // The driver kept less than arrived (its cap): those bytes are read again, and the cut is reported.
    const capped = parseBatch(long, raw(whole.subarray(0, 1024 * 1024)), streamed);
    expect(capped.groups[0]).toEqual([]);
    expect(capped.aborted).toMatch(/ended early/);
  });

  it('marks a step killed at its timeout', () => {
    const stdout = Buffer.from('@@GBSTEP 0.0 124 0 124 1.0 31.0\n0\n0\n@@GBEND\n');
    const r = parseBatch(request, raw(stdout));
    expect(r.groups[0]![0]).toMatchObject({ exitCode: 124, timedOut: true });
  });

  it('gives the runner the words of a plain git call, and none for anything a shell could read otherwise', () => {
    const built = buildBatch(
      {
        groups: [
          {
            stopOnFailure: false,
            steps: [
              { id: 'g', command: "git log --format='%H %s'" },
              { id: 's', command: 'git log | head' },
              { id: 'e', command: 'echo git' },
            ],
          },
        ],
      },
      '/work',
      { runner: hostRunner() },
    );
    // The runner's plan, as the script writes it for the runner (single-quoted for bash).
    const quoted = /printf '%s' '([^]*?)' > "\$gb_dir\/steps"/.exec(built.argv[2]!)![1]!;
    const plan = quoted.replaceAll("'\\''", "'");
    // Each step's line ends with its number of words; the words follow, each after its byte count.
    expect(plan).toContain(
      "S 0.0 30 1048577 0 1 24 0 0 3\n.git log --format='%H %s'3\ngit3\nlog14\n--format=%H %sS 0.1 ",
    );
    expect(plan).toMatch(/S 0\.1 [^\n]* 0 0\n\.git log \| headS 0\.2 [^\n]* 0 0\n\.echo git$/);
  });

  it('sends long scripts on stdin ahead of the archive', () => {
    const long: BatchRequest = {
      restoreTar: Buffer.from('TAR'),
      groups: [{ stopOnFailure: false, steps: [{ id: 'x', command: 'x'.repeat(200_000) }] }],
    };
    const built = buildBatch(long, '/work', { runner: hostRunner() });
    expect(built.argv[2]).toMatch(/read -r gb_n/);
    expect(built.stdin!.subarray(-3).toString()).toBe('TAR');
    const short = buildBatch(request, '/work', { runner: hostRunner() });
    expect(short.argv[0]).toBe('bash');
    expect(short.stdin).toBeUndefined();
  });

  describe('refuses what the runner never writes, as tampering', () => {
    const ok = (...frames: Buffer[]) => parseBatch(request, raw(Buffer.concat(frames)));
    const cases: [string, Buffer[], RegExp][] = [
      [
        'a record of a step that never started (the probes, ahead of the answer)',
        [frame('1.0', 0, 'ok', ''), END],
        /earlier one has not run/,
      ],
      [
        'a second record of a step',
        [frame('0.0', 0, '', ''), frame('0.0', 0, '', ''), frame('0.1', 0, '', ''), frame('1.0', 0, '', ''), END],
        /second record/,
      ],
      [
        'a record of a step its group skipped after a failure',
        [frame('0.0', 1, '', ''), frame('0.1', 0, '', ''), frame('1.0', 0, '', ''), END],
        /group did not run/,
      ],
      [
        'an end before every step ran',
        [frame('0.0', 0, '', ''), END, frame('0.1', 0, '', '')],
        /end before every step ran/,
      ],
      [
        'output after the end',
        [frame('0.0', 0, '', ''), frame('0.1', 0, '', ''), frame('1.0', 0, '', ''), END, Buffer.from('@@GBEND\n')],
        /after the end/,
      ],
      ['a line that is not a record', [frame('0.0', 0, '', ''), Buffer.from('garbage\n')], /not a record/],
      [
        'a record longer than its cap',
        [frame('0.0', 0, '', ''), frame('0.1', 0, '', ''), frame('1.0', 0, 'abcdef', ''), END],
        /longer than its step may print/,
      ],
      [
        'a fatal line after the steps began',
        [frame('0.0', 0, '', ''), Buffer.from('@@GBFATAL restore\n')],
        /fatal line/,
      ],
      ['lengths that are not numbers', [Buffer.from('@@GBSTEP 0.0 0 1 0 1.0 1.0\n-1\n0\n')], /not numbers/],
    ];
    for (const [name, frames, why] of cases) {
      it(name, () => {
        const r = ok(...frames);
        expect(r.tampering).toMatch(why);
        expect(r.aborted).toBe(r.tampering);
      });
    }

    it("reads the runner's own output as no tampering", () => {
      const r = ok(frame('0.0', 0, '@@GBEND\n', ''), frame('0.1', 1, '', ''), frame('1.0', 0, 'abcde', ''), END);
      expect(r.tampering).toBeUndefined();
      expect(r.aborted).toBeUndefined();
      // A group that requires a failed one is skipped whole by the runner.
      const guarded: BatchRequest = {
        groups: [
          { stopOnFailure: false, steps: [{ id: 'x', command: 'false' }] },
          { stopOnFailure: false, requires: 0, steps: [{ id: 'y', command: 'true' }] },
        ],
      };
      expect(parseBatch(guarded, raw(Buffer.concat([frame('0.0', 1, '', ''), END]))).tampering).toBeUndefined();
      expect(
        parseBatch(guarded, raw(Buffer.concat([frame('0.0', 1, '', ''), frame('1.0', 0, '', ''), END]))).tampering,
      ).toMatch(/group did not run/);
    });

    it('refuses a flood without a newline at once, without holding it', () => {
      const reader = new BatchOutputReader(request);
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      // 30 MB in 64 KiB chunks: each chunk after the first is only counted.
      for (let i = 0; i < 480; i++) reader.push(chunk);
      expect(reader.broken?.reason).toMatch(/header longer/);
      expect(reader.bytesPushed).toBe(480 * 64 * 1024);
      expect(reader.cutFrame).toBeUndefined();
      // A header that never ends within the bound is refused too, cut in single bytes.
      const slow = new BatchOutputReader(request);
      for (let i = 0; i <= MAX_PREAMBLE_BYTES; i++) slow.push(Buffer.from('@'));
      expect(slow.tampered).toBe(true);
    });
  });
});
