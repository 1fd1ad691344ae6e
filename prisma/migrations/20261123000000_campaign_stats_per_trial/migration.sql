-- Resources per trial round (for the mean per complete trial) and the known/expected counts of the
-- totals. Rows written before this migration get zeros and empty arrays only so that the columns can
-- be NOT NULL; their refreshedAt is set to the epoch so that `refreshStaleCampaignStats` (run by
-- scripts/setup.sh) rebuilds them from the attempts before anyone reads them as real figures.

-- AlterTable
ALTER TABLE "CampaignStats" ADD COLUMN     "apiExpected" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "apiKnown" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "costExpected" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tokensExpected" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tokensKnown" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trialApiKnown" INTEGER[] DEFAULT '{}',
ADD COLUMN     "trialApiMs" BIGINT[] DEFAULT '{}',
ADD COLUMN     "trialAttempts" INTEGER[] DEFAULT '{}',
ADD COLUMN     "trialCostEstimated" INTEGER[] DEFAULT '{}',
ADD COLUMN     "trialCostKnown" INTEGER[] DEFAULT '{}',
ADD COLUMN     "trialCostUsd" DOUBLE PRECISION[] DEFAULT '{}',
ADD COLUMN     "trialTokens" BIGINT[] DEFAULT '{}',
ADD COLUMN     "trialTokensKnown" INTEGER[] DEFAULT '{}',
ADD COLUMN     "trialValid" INTEGER[] DEFAULT '{}';

UPDATE "CampaignStats" SET "refreshedAt" = TIMESTAMP '1970-01-01 00:00:00';

-- The defaults were only for the rows above; new rows always carry every value.
ALTER TABLE "CampaignStats" ALTER COLUMN "apiExpected" DROP DEFAULT,
ALTER COLUMN "apiKnown" DROP DEFAULT,
ALTER COLUMN "costExpected" DROP DEFAULT,
ALTER COLUMN "tokensExpected" DROP DEFAULT,
ALTER COLUMN "tokensKnown" DROP DEFAULT,
ALTER COLUMN "trialApiKnown" DROP DEFAULT,
ALTER COLUMN "trialApiMs" DROP DEFAULT,
ALTER COLUMN "trialAttempts" DROP DEFAULT,
ALTER COLUMN "trialCostEstimated" DROP DEFAULT,
ALTER COLUMN "trialCostKnown" DROP DEFAULT,
ALTER COLUMN "trialCostUsd" DROP DEFAULT,
ALTER COLUMN "trialTokens" DROP DEFAULT,
ALTER COLUMN "trialTokensKnown" DROP DEFAULT,
ALTER COLUMN "trialValid" DROP DEFAULT;
