import { describe, expect, it } from 'vitest';
import { passwordProblem } from '../src/password-policy';

describe('password policy', () => {
  it('refuses short, common, repeated and keyboard-run passwords', () => {
    for (const weak of [
      'short',
      '1111111111',
      'aaaaaaaaaaaa',
      'abababababab',
      '1234567890',
      '0987654321',
      'qwertyuiop',
      'Password123',
      'abcdefghij',
      '1q2w3e4r5t',
    ]) {
      expect(passwordProblem(weak), weak).not.toBeNull();
    }
  });

  it('accepts passphrases and generated passwords', () => {
    for (const ok of ['correct horse battery', 'member password 1', 'Vq3-xL9_pR2mT8', 'x password 12']) {
      expect(passwordProblem(ok), ok).toBeNull();
    }
  });
});
