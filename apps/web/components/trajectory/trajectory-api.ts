import type { StepPart } from '@/lib/trajectory/view-model';

/** The browser's side of the trajectory routes (app/api/attempts/[id]/trajectory/...). */
const base = (attemptId: string) => `/api/attempts/${encodeURIComponent(attemptId)}/trajectory`;

export function stepsUrl(attemptId: string, tryNumber: number, query: Record<string, string | number>): string {
  const q = new URLSearchParams({
    try: String(tryNumber),
    ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  return `${base(attemptId)}/steps?${q}`;
}

export function searchUrl(attemptId: string, tryNumber: number, query: string): string {
  return `${base(attemptId)}/search?${new URLSearchParams({ q: query, try: String(tryNumber) })}`;
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The whole text of one part of one step ("show all"). */
export async function fetchStepPart(
  attemptId: string,
  tryNumber: number,
  index: number,
  part: StepPart,
): Promise<string> {
  const q = new URLSearchParams({
    try: String(tryNumber),
    part: part.kind,
    ...('callId' in part ? { callId: part.callId } : {}),
  });
  const res = await fetch(`${base(attemptId)}/steps/${index}?${q}`);
  if (!res.ok) throw new Error(String(res.status));
  return res.text();
}
