-- The leaderboard's rows are targets: an agent with a model. The stats rows carry the target's agent
-- (NULL: GitBench's own loop) so that sums over campaigns keep claude-code × oracle apart from our own
-- loop × oracle.
ALTER TABLE "CampaignStats" ADD COLUMN "agent" TEXT;
ALTER TABLE "CampaignTargetStats" ADD COLUMN "agent" TEXT;

UPDATE "CampaignStats" s SET "agent" = t."agent" FROM "CampaignTarget" t WHERE t."id" = s."targetId" AND t."agent" IS NOT NULL;
UPDATE "CampaignTargetStats" s SET "agent" = t."agent" FROM "CampaignTarget" t WHERE t."id" = s."targetId" AND t."agent" IS NOT NULL;
