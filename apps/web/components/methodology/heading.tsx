/** A section heading of the methodology page, its id the anchor other pages link to. */
export function H({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <h2 id={id} className="pt-4 text-lg font-semibold">
      {children}
    </h2>
  );
}
