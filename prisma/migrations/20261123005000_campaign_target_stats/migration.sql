-- A per-(campaign, target) roll-up of CampaignStats, written by the same refresh, and an index for the
-- distinct domains and difficulties of the filter bar. Existing stats are
-- marked stale (refreshedAt at the epoch) so that refreshStaleCampaignStats, run by scripts/setup.sh,
-- writes the roll-up rows of every campaign that already has stats.

-- CreateTable
CREATE TABLE "CampaignTargetStats" (
    "campaignId" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "reasoningEffort" TEXT,
    "outputMode" "OutputMode" NOT NULL,
    "attempts" INTEGER NOT NULL,
    "valid" INTEGER NOT NULL,
    "passes" INTEGER NOT NULL,
    "infraFailures" INTEGER NOT NULL,
    "unscored" INTEGER NOT NULL,
    "otherExcluded" INTEGER NOT NULL,
    "fixtures" INTEGER NOT NULL,
    "stablePass" INTEGER NOT NULL,
    "stableFail" INTEGER NOT NULL,
    "flaky" INTEGER NOT NULL,
    "unknown" INTEGER NOT NULL,
    "passAnyNum" INTEGER[],
    "passAnyDen" INTEGER[],
    "inputTokens" BIGINT NOT NULL,
    "outputTokens" BIGINT NOT NULL,
    "reasoningTokens" BIGINT NOT NULL,
    "totalTokens" BIGINT NOT NULL,
    "costUsd" DOUBLE PRECISION NOT NULL,
    "costKnown" INTEGER NOT NULL,
    "costEstimated" INTEGER NOT NULL,
    "costExpected" INTEGER NOT NULL,
    "tokensKnown" INTEGER NOT NULL,
    "tokensExpected" INTEGER NOT NULL,
    "apiDurationMs" BIGINT NOT NULL,
    "apiKnown" INTEGER NOT NULL,
    "apiExpected" INTEGER NOT NULL,
    "trialAttempts" INTEGER[],
    "trialValid" INTEGER[],
    "trialCostUsd" DOUBLE PRECISION[],
    "trialCostKnown" INTEGER[],
    "trialCostEstimated" INTEGER[],
    "trialTokens" BIGINT[],
    "trialTokensKnown" INTEGER[],
    "trialApiMs" BIGINT[],
    "trialApiKnown" INTEGER[],
    "refreshedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CampaignTargetStats_pkey" PRIMARY KEY ("campaignId","targetId")
);

-- CreateIndex
CREATE INDEX "CampaignTargetStats_modelId_outputMode_idx" ON "CampaignTargetStats"("modelId", "outputMode");

-- CreateIndex
CREATE INDEX "CampaignStats_domain_difficulty_idx" ON "CampaignStats"("domain", "difficulty");


UPDATE "CampaignStats" SET "refreshedAt" = TIMESTAMP '1970-01-01 00:00:00';
