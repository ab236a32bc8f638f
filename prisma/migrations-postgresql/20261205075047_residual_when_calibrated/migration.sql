-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "residualWhenCalibrated" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Round" ADD COLUMN     "acquisition" TEXT;

