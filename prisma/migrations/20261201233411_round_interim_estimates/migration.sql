-- AlterTable
ALTER TABLE "Round" ADD COLUMN "interimEstimates" JSONB;

