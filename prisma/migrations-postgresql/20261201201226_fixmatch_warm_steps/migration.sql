-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "fixmatchWarmSteps" INTEGER;

