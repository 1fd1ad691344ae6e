-- AlterTable
ALTER TABLE "Attempt" ADD COLUMN     "judgeCalls" INTEGER,
ADD COLUMN     "judgeCostUsd" DOUBLE PRECISION,
ADD COLUMN     "judgeTotalTokens" INTEGER;
