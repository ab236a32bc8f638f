-- Added in place, not by redefining "Project": the migrations run in one transaction, where
-- PRAGMA foreign_keys=OFF does nothing, so a DROP TABLE "Project" would cascade to every project's rows.
ALTER TABLE "Project" ADD COLUMN "pairDesign" TEXT NOT NULL DEFAULT 'random';
ALTER TABLE "Project" ADD COLUMN "pairUniformShare" REAL NOT NULL DEFAULT 0.5;
-- Before this setting the acquisition implied the pair design (uncertainty acquisitions: uncertain pairs,
-- CrossEntropy: anchor pairs, the others uniform): existing projects keep drawing what they drew.
UPDATE "Project" SET "pairDesign" = CASE "acquisition" WHEN 'maxentropy' THEN 'uncertain' WHEN 'bald' THEN 'uncertain' WHEN 'crossentropy' THEN 'anchor' ELSE 'random' END;
