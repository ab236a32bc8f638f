-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "releasedAt" TIMESTAMP(3),
ADD COLUMN     "releases" INTEGER NOT NULL DEFAULT 0;

