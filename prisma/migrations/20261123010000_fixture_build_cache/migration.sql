-- CreateTable
CREATE TABLE "FixtureBuild" (
    "key" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "fixtureId" TEXT NOT NULL,
    "inputHash" TEXT NOT NULL,
    "repoState" TEXT NOT NULL,
    "repoArchive" BYTEA NOT NULL,
    "setupLog" TEXT NOT NULL,
    "buildInfo" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FixtureBuild_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "FixtureBuild_lastUsedAt_idx" ON "FixtureBuild"("lastUsedAt");

