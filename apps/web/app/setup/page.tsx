import { redirect } from 'next/navigation';
import { CredentialsForm } from '@/components/credentials-form';
import { services } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'First run · GitBench' };

/** The first-run page: only while GitBench has no user at all, it creates the first admin. */
export default async function SetupPage() {
  if ((await services().db.user.count()) > 0) redirect('/sign-in');
  return (
    <div className="mx-auto max-w-sm space-y-4">
      <h1 className="text-2xl font-semibold">Create the first admin</h1>
      <p className="text-sm text-slate-600">
        GitBench has no users yet. The account you create here is its first admin; this page closes as soon as it
        exists. (The same is possible from a shell: <code>gitbench user create --admin</code>.)
      </p>
      <CredentialsForm next="/" firstAdmin />
    </div>
  );
}
