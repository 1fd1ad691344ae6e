import type { Locator } from '@playwright/test';

/** WCAG relative luminance of an element's computed colour property, read through a canvas (any CSS colour syntax). */
export async function luminance(target: Locator, property: 'color' | 'backgroundColor'): Promise<number> {
  return target.evaluate((el, prop) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.fillStyle = getComputedStyle(el)[prop];
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  }, property);
}

/** WCAG contrast ratio of two luminances. */
export const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
