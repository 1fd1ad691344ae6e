import { redirect } from 'next/navigation';
import { CredentialsForm } from '@/components/credentials-form';
import { currentActor } from '@/lib/auth/guard';
import { safeNextPath } from '@/lib/auth/next-path';
import { webEnv } from '@/lib/env';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in · GitBench' };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeNextPath((await searchParams).next);
  if (await currentActor()) redirect(next);
  if ((await services().db.user.count()) === 0) redirect('/setup');
  const env = webEnv();
  return (
    <div className="mx-auto max-w-sm space-y-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      <CredentialsForm next={next} {...(env.GITBENCH_OIDC_ISSUER ? { oidcName: env.GITBENCH_OIDC_NAME } : {})} />
      <p className="text-xs text-slate-600">
        Accounts are created by an admin (Settings → Users, or <code>gitbench user create</code>).
      </p>
    </div>
  );
}
