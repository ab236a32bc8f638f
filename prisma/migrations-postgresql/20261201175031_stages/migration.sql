-- AlterTable
ALTER TABLE "Batch" ADD COLUMN     "design" TEXT,
ADD COLUMN     "eps" DOUBLE PRECISION,
ADD COLUMN     "evidence" JSONB,
ADD COLUMN     "poolSize" INTEGER;

-- AlterTable
ALTER TABLE "Round" ADD COLUMN     "probaFile" TEXT,
ADD COLUMN     "temperature" DOUBLE PRECISION;

