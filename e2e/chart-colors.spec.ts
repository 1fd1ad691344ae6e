import { expect, test, type Locator } from '@playwright/test';
import { LEGACY_MODEL, shot } from './support';

/**
 * The charts (recharts SVG) in both schemes: ticks, axis labels and median labels readable on the chart's card (WCAG
 * 4.5:1), series and points standing out from it (3:1, as for any graphic), the grid fainter than the text, and the
 * tooltip on the card's own background. Colours are read as drawn (computed style, which an inline style wins), through
 * a canvas.
 */
async function colours(chart: Locator, selectors: Record<string, [string, 'fill' | 'stroke']>) {
  return chart.evaluate((root, sel) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const lum = (colour: string) => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const card = lum(getComputedStyle(root).backgroundColor);
    const out: Record<string, number[]> = {};
    for (const [name, [css, attr]] of Object.entries(sel)) {
      out[name] = Array.from(root.querySelectorAll(css)).map((el) => contrast(lum(getComputedStyle(el)[attr]), card));
    }
    return { card, out };
  }, selectors);
}

for (const scheme of ['dark', 'light'] as const) {
  test.describe(`with the system in ${scheme} mode`, () => {
    test.use({ colorScheme: scheme });

    test("the model page's over-time chart reads on its card", async ({ page }) => {
      await page.goto(`/models?id=${encodeURIComponent(LEGACY_MODEL)}&legacy=1`);
      const chart = page.getByTestId('over-time-chart');
      // Each upstream file is one campaign of one output mode: a point per mode, so dots, not lines.
      await expect(chart.locator('.recharts-line-dots circle').first()).toBeVisible();
      const { card, out } = await colours(chart, {
        ticks: ['.recharts-cartesian-axis-tick-value', 'fill'],
        series: ['.recharts-line-dots circle', 'fill'],
        grid: ['.recharts-cartesian-grid-horizontal line', 'stroke'],
      });
      if (scheme === 'dark') expect(card).toBeLessThan(0.05);
      else expect(card).toBeGreaterThan(0.9);
      expect(out.ticks!.length).toBeGreaterThan(3);
      for (const c of out.ticks!) expect(c).toBeGreaterThan(4.5);
      expect(out.series!.length).toBeGreaterThan(0);
      for (const c of out.series!) expect(c).toBeGreaterThan(3);
      for (const c of out.grid!) {
        expect(c).toBeGreaterThan(1.1);
        expect(c).toBeLessThan(Math.min(...out.ticks!));
      }
      await shot(page, `over-time-chart-${scheme}`);
    });

    test('the quadrant reads on its card, and its tooltip too', async ({ page }) => {
      await page.goto('/quadrant?legacy=1');
      const chart = page.getByTestId('quadrant-chart');
      await expect(chart.locator('.recharts-symbols').first()).toBeVisible();
      const { out } = await colours(chart, {
        ticks: ['.recharts-cartesian-axis-tick-value', 'fill'],
        labels: ['.recharts-label', 'fill'],
        points: ['.recharts-symbols', 'fill'],
        grid: ['.recharts-cartesian-grid-horizontal line', 'stroke'],
      });
      for (const c of [...out.ticks!, ...out.labels!]) expect(c).toBeGreaterThan(4.5);
      expect(out.labels!.length).toBeGreaterThanOrEqual(4);
      expect(out.points!.length).toBeGreaterThan(0);
      for (const c of out.points!) expect(c).toBeGreaterThan(3);
      for (const c of out.grid!) expect(c).toBeLessThan(Math.min(...out.ticks!));

      await chart.locator('.recharts-symbols').first().hover();
      const tooltip = chart.locator('.recharts-tooltip-wrapper div.rounded');
      await expect(tooltip).toBeVisible();
      const { card: tip } = await colours(tooltip, {});
      if (scheme === 'dark') expect(tip).toBeLessThan(0.05);
      else expect(tip).toBeGreaterThan(0.9);
      await shot(page, `quadrant-${scheme}`);
    });
  });
}
