import Link from 'next/link';

/** Campaigns named in a sentence, each linked to its page, comma-separated. */
export function CampaignLinks({ campaigns }: { campaigns: readonly { id: string; name: string }[] }) {
  return (
    <>
      {campaigns.map((c, i) => (
        <span key={c.id}>
          {i > 0 ? ', ' : ''}
          <Link className="text-indigo-700 underline" href={`/campaigns/${c.id}`}>
            {c.name}
          </Link>
        </span>
      ))}
    </>
  );
}
