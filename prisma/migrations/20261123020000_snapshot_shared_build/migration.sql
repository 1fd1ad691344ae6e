-- AlterTable
ALTER TABLE "FixtureSnapshot" ADD COLUMN     "buildKey" TEXT;

-- CreateIndex
CREATE INDEX "FixtureSnapshot_buildKey_idx" ON "FixtureSnapshot"("buildKey");

-- AddForeignKey
ALTER TABLE "FixtureSnapshot" ADD CONSTRAINT "FixtureSnapshot_buildKey_fkey" FOREIGN KEY ("buildKey") REFERENCES "FixtureBuild"("key") ON DELETE RESTRICT ON UPDATE CASCADE;

