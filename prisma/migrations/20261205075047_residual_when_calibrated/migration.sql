-- AlterTable
ALTER TABLE "Project" ADD COLUMN "residualWhenCalibrated" REAL;

-- AlterTable
ALTER TABLE "Round" ADD COLUMN "acquisition" TEXT;

