import { ID_PREFIXES } from '@gitbench/core/figures';
import { UsageError, type ParsedArgs } from '../args';
import { EXIT } from '../exit';

const CAMPAIGN_ID = new RegExp(`^${ID_PREFIXES.campaign}_[A-Za-z0-9]+$`);

/** The one positional a campaign subcommand takes, checked for shape before any query. */
export function campaignIdArg(args: ParsedArgs, usage: string): string {
  const [id, ...extra] = args.positionals;
  if (!id || extra.length > 0) throw new UsageError(usage);
  if (!CAMPAIGN_ID.test(id))
    throw new UsageError(`'${id}' is not a campaign id (they look like ${ID_PREFIXES.campaign}_…)`);
  return id;
}

/** A well-formed id that names no campaign: said on stderr, exit 1. */
export function noSuchCampaign(id: string): number {
  process.stderr.write(`no campaign ${id}\n`);
  return EXIT.failed;
}
