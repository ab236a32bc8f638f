-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Project" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'ready',
    "dataPath" TEXT NOT NULL,
    "bundleName" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "d" INTEGER NOT NULL,
    "itemKind" TEXT NOT NULL DEFAULT 'none',
    "hasReferenceLabels" BOOLEAN NOT NULL DEFAULT false,
    "embeddingSpace" TEXT,
    "mode" TEXT NOT NULL DEFAULT 'clusterwise',
    "classMode" TEXT NOT NULL DEFAULT 'fixed',
    "guidelines" TEXT NOT NULL DEFAULT '',
    "acquisition" TEXT NOT NULL,
    "design" TEXT NOT NULL,
    "estimator" TEXT NOT NULL,
    "fixmatch" BOOLEAN NOT NULL,
    "seedSize" INTEGER NOT NULL DEFAULT 50,
    "batchSize" INTEGER NOT NULL DEFAULT 50,
    "budget" INTEGER NOT NULL DEFAULT 1000,
    "fixmatchSteps" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "annotatorsSeeEstimates" BOOLEAN NOT NULL DEFAULT false,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "seed" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Project" ("acquisition", "annotatorsSeeEstimates", "batchSize", "budget", "bundleName", "classMode", "createdAt", "d", "dataPath", "description", "design", "embeddingSpace", "estimator", "fixmatch", "fixmatchSteps", "guidelines", "hasReferenceLabels", "id", "itemKind", "mode", "n", "name", "overlap", "paused", "seed", "seedSize", "state", "updatedAt") SELECT "acquisition", "annotatorsSeeEstimates", "batchSize", "budget", "bundleName", "classMode", "createdAt", "d", "dataPath", "description", "design", "embeddingSpace", "estimator", "fixmatch", "fixmatchSteps", "guidelines", "hasReferenceLabels", "id", "itemKind", "mode", "n", "name", "overlap", "paused", "seed", "seedSize", "state", "updatedAt" FROM "Project";
DROP TABLE "Project";
ALTER TABLE "new_Project" RENAME TO "Project";
CREATE UNIQUE INDEX "Project_dataPath_key" ON "Project"("dataPath");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

