import { describe, expect, it } from 'vitest';
import { listKeyOf, movedIndex, type ListKeyEvent } from '../lib/keyboard/list-keys';

const press = (
  key: string,
  target: unknown = { tagName: 'BODY' },
  extra: Partial<ListKeyEvent> = {},
): ListKeyEvent => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  defaultPrevented: false,
  target,
  ...extra,
});

describe('listKeyOf', () => {
  it('reads j, k and Enter on the page', () => {
    expect(listKeyOf(press('j'))).toBe('next');
    expect(listKeyOf(press('k'))).toBe('previous');
    expect(listKeyOf(press('Enter'))).toBe('open');
    expect(listKeyOf(press('J'))).toBeNull();
    expect(listKeyOf(press('x'))).toBeNull();
  });

  it('leaves typing alone: inputs, text areas, selects and editable text', () => {
    for (const tagName of ['INPUT', 'input', 'TEXTAREA', 'SELECT'])
      expect(listKeyOf(press('j', { tagName }))).toBeNull();
    expect(listKeyOf(press('k', { tagName: 'DIV', isContentEditable: true }))).toBeNull();
    expect(listKeyOf(press('Enter', { tagName: 'INPUT' }))).toBeNull();
  });

  it('leaves shortcuts with a modifier and keys already handled alone', () => {
    expect(listKeyOf(press('j', undefined, { ctrlKey: true }))).toBeNull();
    expect(listKeyOf(press('k', undefined, { metaKey: true }))).toBeNull();
    expect(listKeyOf(press('j', undefined, { altKey: true }))).toBeNull();
    expect(listKeyOf(press('j', undefined, { defaultPrevented: true }))).toBeNull();
  });

  it('leaves Enter to a focused link, button or summary, but still moves with j and k from them', () => {
    for (const tagName of ['A', 'BUTTON', 'SUMMARY']) {
      expect(listKeyOf(press('Enter', { tagName }))).toBeNull();
      expect(listKeyOf(press('j', { tagName }))).toBe('next');
    }
    expect(listKeyOf(press('Enter', null))).toBe('open');
  });
});

describe('movedIndex', () => {
  it('starts at the first item going down and the last going up, and stops at both ends', () => {
    expect(movedIndex(-1, 'next', 5)).toBe(0);
    expect(movedIndex(-1, 'previous', 5)).toBe(4);
    expect(movedIndex(0, 'previous', 5)).toBe(0);
    expect(movedIndex(4, 'next', 5)).toBe(4);
    expect(movedIndex(2, 'next', 5)).toBe(3);
    expect(movedIndex(2, 'previous', 5)).toBe(1);
    expect(movedIndex(-1, 'next', 0)).toBe(-1);
  });
});
