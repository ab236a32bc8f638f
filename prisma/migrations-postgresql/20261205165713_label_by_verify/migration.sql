-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "labelBy" TEXT NOT NULL DEFAULT 'pick';

-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "verifyAnswers" INTEGER;

