-- AlterTable
ALTER TABLE "Batch" ADD COLUMN "design" TEXT;
ALTER TABLE "Batch" ADD COLUMN "eps" REAL;
ALTER TABLE "Batch" ADD COLUMN "evidence" JSONB;
ALTER TABLE "Batch" ADD COLUMN "poolSize" INTEGER;

-- AlterTable
ALTER TABLE "Round" ADD COLUMN "probaFile" TEXT;
ALTER TABLE "Round" ADD COLUMN "temperature" REAL;


-- Stages (issue #18): a batch is a stage whose size is the number of tasks drawn in it. A batch
-- the old code had only partly filled (overflow drawn while its round trained) is complete as it is.
UPDATE "Batch" SET "size" = (SELECT COUNT(*) FROM "Task" WHERE "Task"."batchId" = "Batch"."id");
