-- AlterTable
ALTER TABLE "Label" ADD COLUMN "durationMs" INTEGER;

