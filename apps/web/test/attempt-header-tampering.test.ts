import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { attemptStatusReason, classifyEnding, type AttemptOutcome } from '@gitbench/core';
import { AttemptHeader } from '../components/attempt/attempt-header';
import type { AttemptPageData } from '../lib/queries/attempt';
import { renderedText } from './support/rendered-text';

// The attempt page's header as a reader sees it, for an attempt stored as the worker stores it: the
// status and error class its outcome classifies to (classifyEnding), the engine's error as its message.

/** The header's text (tags dropped, entities read), and the error line's alone. */
function renderedHeader(outcome: AttemptOutcome, errorMessage: string): { text: string; error: string } {
  const ending = classifyEnding({ outcome });
  const data = {
    attempt: {
      id: 'attempt-1',
      campaignId: 'campaign-1',
      campaign: { name: 'red team', trials: 1, legacy: false },
      modelId: 'openai/gpt-x',
      domain: 'git_clean',
      fixtureId: 'f001',
      trial: 1,
      status: ending.status,
      outputMode: 'text',
      reasoningEffort: null,
      score: 0,
      tryCount: 1,
      errorClass: ending.errorClass,
      errorMessage,
    },
    siblings: [],
    rawHidden: false,
  } as unknown as AttemptPageData;
  const html = renderToStaticMarkup(createElement(AttemptHeader, { data, reason: attemptStatusReason(ending.status) }));
  const text = renderedText;
  const errorLine = /data-testid="attempt-error">(.*?)<\/p>/.exec(html);
  return { text: text(html), error: errorLine ? text(errorLine[1]!) : '' };
}

describe('the attempt page of a tampering attempt', () => {
  const TAMPERED =
    "the answer's processes tampered with the sandbox's channel: the sandbox's records broke their protocol at " +
    'byte 96: a record of a step while an earlier one has not run ("@@GBSTEP 2.0 0 1 0 1.000000 1.010000")';

  it('names it tampering, with the reader’s reason, as a failure counted against the model', () => {
    const page = renderedHeader('TAMPERING', TAMPERED);
    expect(page.error).toBe(`tampering: ${TAMPERED}`);
    expect(page.text).toContain('fail');
    expect(page.text).toContain('failed (counted against the model)');
    // Never presented as an excluded infrastructure failure.
    expect(page.text).not.toMatch(/infra|excluded|sandbox_error/i);
  });

  it('still shows a sandbox that failed (the host out of memory) as an infrastructure failure, not tampering', () => {
    const page = renderedHeader('SANDBOX_ERROR', 'sandbox failed: (HTTP code 500) cannot allocate memory');
    expect(page.error).toBe('sandbox_error: sandbox failed: (HTTP code 500) cannot allocate memory');
    expect(page.text).toContain('infra failure');
    expect(page.text).toContain('infrastructure failure');
    expect(page.text).not.toMatch(/tamper|counted against the model/i);
  });
});
