import { chromium } from 'playwright-core';
const [base, password, ...paths] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
const res = await context.request.post(`${base}/api/auth/sign-in/email`, { data: { email: 'admin@gitbench.local', password }, headers: { origin: base } });
console.log('sign-in', res.status());
const page = await context.newPage();
for (const [i, p] of paths.entries()) {
  const r = await page.goto(`${base}${p}`, { waitUntil: 'networkidle' });
  const file = `/tmp/manual-shots/${i}.png`;
  await page.screenshot({ path: file, fullPage: true });
  console.log(r?.status(), p, file, (await page.title()));
}
await browser.close();
