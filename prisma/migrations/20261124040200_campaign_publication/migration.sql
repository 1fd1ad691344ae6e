-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "publishedAt" TIMESTAMP(3),
ADD COLUMN     "publishedBy" TEXT;
