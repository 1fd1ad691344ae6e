-- A target is an agent with a model: the third-party agent (claude-code, codex, ...) that drives the
-- model in agent mode; NULL is GitBench's own loop (every target before this column).
ALTER TABLE "CampaignTarget" ADD COLUMN "agent" TEXT;

-- DropIndex
DROP INDEX "CampaignTarget_campaignId_modelId_outputMode_key";

-- CreateIndex
CREATE UNIQUE INDEX "CampaignTarget_campaignId_modelId_outputMode_agent_key" ON "CampaignTarget"("campaignId", "modelId", "outputMode", "agent");
