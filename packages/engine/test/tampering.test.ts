import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyEnding, fixtureDefinitionHash, inputHash, SandboxFailure } from '@gitbench/core';
import { parseBatch, type BatchRequest, type OneShotResult, type SandboxDriver } from '@gitbench/sandbox';
import { loadSuiteDir } from '../src/load-suite-dir';
import { scoreAttempt } from '../src/score-attempt';
import type { FixtureSnapshot } from '../src/fixture-snapshot';
import { UPSTREAM_FIXTURES } from '../../core/test/fixtures/upstream-data';

const STATE = 'state of the repository as built\n';

function frame(key: string, rc: number, out: string): Buffer {
  return Buffer.concat([
    Buffer.from(`@@GBSTEP ${key} ${rc} 1 ${rc} 1.000000 1.010000\n${Buffer.byteLength(out)}\n0\n`),
    Buffer.from(out),
  ]);
}

/** A driver whose sandbox prints `stdout(request)`: what a runner wrote, or what an answer forged into its channel. */
function printing(stdout: (request: BatchRequest) => Buffer, exitCode = 0, oomKilled?: boolean): SandboxDriver {
  return {
    describe: () => ({ driver: 'docker', image: 'test', imageId: 'test', isolated: true }),
    runOnce: async (request: BatchRequest): Promise<OneShotResult> => ({
      ...parseBatch(request, {
        stdout: stdout(request),
        stderr: Buffer.alloc(0),
        exitCode,
        hostTimedOut: false,
        durationMs: 1,
        ...(oomKilled !== undefined ? { oomKilled } : {}),
      }),
      sandboxId: 'box',
    }),
  } as unknown as SandboxDriver;
}

describe('tampering with the sandbox channel', async () => {
  const suite = await loadSuiteDir(path.join(UPSTREAM_FIXTURES, 'git_clean'));
  const fixture = suite.fixtures.find((f) => f.id === 'f001')!;
  const snapshot = {
    repoState: STATE,
    inputHash: inputHash(fixtureDefinitionHash(fixture), STATE),
    repoDir: 'repo',
    context: {},
    tar: Buffer.alloc(0),
    image: { driver: 'docker', tag: 'test', id: 'test', isolated: true },
  } as unknown as FixtureSnapshot;
  const scoreWith = (driver: SandboxDriver) =>
    scoreAttempt({ fixture, snapshot, driver, outputMode: 'text', prompt: 'p', output: 'true' });
  const score = (stdout: (request: BatchRequest) => Buffer, exitCode = 0, oomKilled?: boolean) =>
    scoreWith(printing(stdout, exitCode, oomKilled));
  /** The runner's records up to the answer's step, which never ends: the runner died during it. */
  const diedDuringAnswer = () => Buffer.concat([frame('0.0', 0, STATE), frame('0.1', 0, '')]);

  it('scores forged probe records written after the answer ran as TAMPERING, a counted failure', async () => {
    const result = await score((request) => {
      // The answer's step forges every probe's record as passing, then the end, as the issue's attack did.
      const forged = request.groups[2]!.steps.map((_, i) => frame(`2.${i}`, 0, ''));
      return Buffer.concat([
        frame('0.0', 0, STATE),
        frame('0.1', 0, ''),
        ...forged,
        Buffer.from('@@GBEND\n'),
        frame('1.0', 0, ''),
      ]);
    });
    expect(result.outcome).toBe('TAMPERING');
    expect(result.passed).toBe(false);
    expect(result.error).toMatch(
      /^the answer's processes tampered with the sandbox's channel: .*earlier one has not run/,
    );
    expect(classifyEnding({ outcome: result.outcome })).toMatchObject({
      status: 'VALID_FAIL',
      errorClass: 'tampering',
      quality: true,
    });
  });

  it('keeps a sandbox that broke before the answer ran an excluded sandbox error', async () => {
    const result = await score(() => Buffer.from('garbage\n'));
    expect(result.outcome).toBe('SANDBOX_ERROR');
  });

  it(
    'keeps the host out of memory or Docker gone an excluded, retryable infrastructure failure, ' +
      'and tampering a scored failure never retried: neither ever becomes the other',
    async () => {
      const excluded = { status: 'INFRA_FAILURE', errorClass: 'sandbox_error', quality: false, infrastructure: true };
      const scored = { status: 'VALID_FAIL', errorClass: 'tampering', quality: true, infrastructure: false };
      // The engine could not run the batch at all: what a driver throws when Docker is gone or cannot allocate memory.
      const engineDown = await scoreWith({
        ...printing(() => Buffer.alloc(0)),
        runOnce: async () => {
          throw new SandboxFailure('Cannot connect to the Docker daemon; cannot allocate memory');
        },
      } as unknown as SandboxDriver);
      // The container killed with SIGKILL (exit 137, as the kernel's OOM killer ends it) before the answer ran.
      const killedBeforeAnswer = await score(() => Buffer.alloc(0), 137);
      const forged = await score((request) =>
        Buffer.concat([
          frame('0.0', 0, STATE),
          frame('0.1', 0, ''),
          ...request.groups[2]!.steps.map((_, i) => frame(`2.${i}`, 0, '')),
          Buffer.from('@@GBEND\n'),
        ]),
      );
      expect([engineDown.outcome, killedBeforeAnswer.outcome, forged.outcome]).toEqual([
        'SANDBOX_ERROR',
        'SANDBOX_ERROR',
        'TAMPERING',
      ]);
      expect(classifyEnding({ outcome: engineDown.outcome })).toEqual(excluded);
      expect(classifyEnding({ outcome: killedBeforeAnswer.outcome })).toEqual(excluded);
      expect(classifyEnding({ outcome: forged.outcome })).toEqual(scored);
      expect(engineDown.error).toMatch(/^sandbox failed: .*cannot allocate memory/);
      expect(killedBeforeAnswer.error).toMatch(/^sandbox failed before the answer ran: .*exit 137/);
      expect(forged.error).toMatch(/^the answer's processes tampered with/);
    },
  );

  it(
    "scores the runner killed for memory once the answer ran as TAMPERING: the answer's processes can " +
      'fill the sandbox until the OOM killer takes it, so it never becomes an exclusion',
    async () => {
      const result = await score(diedDuringAnswer, 137, true);
      expect(result.outcome).toBe('TAMPERING');
      expect(result.error).toMatch(
        /^the answer's processes tampered with the sandbox's memory: the sandbox's memory ran out and its runner was/,
      );
      expect(classifyEnding({ outcome: result.outcome })).toMatchObject({
        status: 'VALID_FAIL',
        errorClass: 'tampering',
      });
    },
  );

  it(
    'keeps the runner killed from outside the sandbox (no OOM) an excluded sandbox error, before or after the ' +
      'answer ran: no process of the answer may signal it; and memory that ran out before the answer is one too',
    async () => {
      const killedAfter = await score(diedDuringAnswer, 137, false);
      const killedBefore = await score(() => Buffer.alloc(0), 137, false);
      const memoryBefore = await score(() => Buffer.alloc(0), 137, true);
      expect([killedAfter.outcome, killedBefore.outcome, memoryBefore.outcome]).toEqual([
        'SANDBOX_ERROR',
        'SANDBOX_ERROR',
        'SANDBOX_ERROR',
      ]);
      expect(killedAfter.error).toMatch(/^sandbox failed: the sandbox's runner was killed from outside the sandbox/);
      expect(memoryBefore.error).toMatch(/^sandbox failed before the answer ran: the sandbox's memory ran out/);
      expect(classifyEnding({ outcome: killedAfter.outcome })).toMatchObject({
        status: 'INFRA_FAILURE',
        errorClass: 'sandbox_error',
      });
    },
  );

  it('leaves a runner that died where the driver cannot say why (the local driver) a scored failure', async () => {
    const result = await score(diedDuringAnswer, 137);
    expect(result.outcome).toBe('FAIL');
    expect(result.sandbox).toHaveProperty('aborted');
    expect(result.sandbox.kind !== 'none' && result.sandbox.aborted).toMatch(
      /^sandbox batch stopped before its end \(exit 137\)/,
    );
  });
});
