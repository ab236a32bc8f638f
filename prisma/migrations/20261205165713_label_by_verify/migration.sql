-- Added in place, not by redefining "Project" as Prisma's diff does for a column in the middle of a table.
-- AlterTable
ALTER TABLE "Project" ADD COLUMN "labelBy" TEXT NOT NULL DEFAULT 'pick';

-- AlterTable
ALTER TABLE "Label" ADD COLUMN "verifyAnswers" INTEGER;
