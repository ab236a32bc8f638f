-- AlterTable
ALTER TABLE "Round" ADD COLUMN "scoresFile" TEXT;

