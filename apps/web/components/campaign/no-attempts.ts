/** Why a campaign has no attempts to show, in the words of its status. */
export function noAttemptsYet(status: string, detail: string | null): string {
  if (status === 'CANCELLED') return 'It was cancelled before any attempt was planned, so nothing ran.';
  if (status === 'FAILED') return `Planning failed${detail ? `: ${detail}` : ''}. Nothing ran.`;
  return 'The worker is building each fixture’s repository to plan the attempts; figures appear here as they finish.';
}
