import { expect, type Page } from '@playwright/test';
import type { Role } from '../packages/core/src/access/roles';
import { authStatePath, E2E_USERS } from './users';

export { E2E_USERS };

/**
 * Every spec runs signed in as a member unless it says otherwise, in one line:
 * `test.use(signedInAs('viewer'))`, or `test.use(anonymous)` for a browser with no session.
 */
export const signedInAs = (role: Role) => ({ storageState: authStatePath(role) });
export const anonymous = { storageState: { cookies: [], origins: [] } };

/** Every page the suite visits is kept as a screenshot under test-results/screens, to be looked at. */
export async function shot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Loading the figures from the database')).toHaveCount(0);
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/** Where global-setup's dashboard seed (e2e/seed-dashboard.ts) writes the attempts it seeded. */
export const DASHBOARD_SEED_FILE = 'test-results/e2e-seed/dashboard.json';

/** The upstream results, imported as legacy campaigns by global-setup. */
export const LEGACY_MODEL = 'mistralai/devstral-2512';

/** The built-in simulated model, whatever the form calls it (`simulated`, earlier `sim`). */
export const SIMULATED_LABEL = /^sim(ulated)?$/;

export interface CampaignForm {
  name: string;
  models?: (string | RegExp)[];
  otherModels?: string;
  suite?: string;
  domain?: string;
  trials: string;
}

/** Fills the new-campaign form the way a person would, and waits for the estimate. */
export async function fillCampaignForm(page: Page, form: CampaignForm) {
  await page.goto('/campaigns/new');
  await expect(page.getByRole('heading', { name: 'New campaign' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(form.name);
  for (const m of form.models ?? []) await page.getByLabel(m, { exact: true }).check();
  if (form.otherModels) await page.getByLabel(/Other model ids/).fill(form.otherModels);
  if (form.suite) await page.getByLabel('Suite').selectOption(form.suite);
  const domains = page.getByRole('group', { name: 'Domains' });
  if (form.domain) await domains.getByLabel(form.domain, { exact: true }).check();
  else await domains.getByRole('checkbox').first().check();
  await page.getByLabel('Trials').fill(form.trials);
  // The estimate for this selection, not one still shown from an earlier one (aria-busy while asked again).
  await expect(page.getByTestId('estimate')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('estimate')).toContainText(/\d+ attempts/);
}

/** Launches the filled form: the button, then the confirmation that gives the number of attempts. */
export async function launch(page: Page, name: string) {
  await page.getByRole('button', { name: 'Launch campaign' }).click();
  await page
    .getByTestId('launch-confirmation')
    .getByRole('button', { name: /^Launch \d+ attempts?$/ })
    .click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
}
