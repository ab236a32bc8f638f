-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'ANNOTATOR',
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Project" (
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
    "acquisition" TEXT NOT NULL DEFAULT 'hardnmi',
    "estimator" TEXT NOT NULL DEFAULT 'argmax',
    "fixmatch" BOOLEAN NOT NULL DEFAULT true,
    "seedSize" INTEGER NOT NULL DEFAULT 50,
    "batchSize" INTEGER NOT NULL DEFAULT 50,
    "budget" INTEGER NOT NULL DEFAULT 1000,
    "fixmatchSteps" INTEGER NOT NULL DEFAULT 512,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "annotatorsSeeEstimates" BOOLEAN NOT NULL DEFAULT false,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "seed" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ReferenceClass" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReferenceClass_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Clustering" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "k" INTEGER NOT NULL,
    "file" TEXT NOT NULL,
    "softFile" TEXT,
    "space" TEXT,
    "origin" JSONB NOT NULL,
    "trueMetrics" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Clustering_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EmbeddingSpace" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "d" INTEGER NOT NULL,
    "file" TEXT NOT NULL,
    CONSTRAINT "EmbeddingSpace_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Item" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "externalId" TEXT NOT NULL,
    "image" TEXT,
    "text" TEXT,
    CONSTRAINT "Item_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "email" TEXT,
    "createdById" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    "acceptedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Invite_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "drawnByRoundIndex" INTEGER,
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Batch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "itemIndex" INTEGER NOT NULL,
    "itemIndexB" INTEGER,
    "design" TEXT NOT NULL,
    "score" REAL,
    "q" REAL NOT NULL,
    "drawOrder" INTEGER NOT NULL,
    "overflow" BOOLEAN NOT NULL DEFAULT false,
    "done" BOOLEAN NOT NULL DEFAULT false,
    "resolvedClassIndex" INTEGER,
    "resolvedAnswer" TEXT,
    "resolvedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Task_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Task_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Lease" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "taskId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Lease_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "classIndex" INTEGER,
    "answer" TEXT,
    "reason" TEXT,
    "idempotencyKey" TEXT NOT NULL,
    "withdrawn" BOOLEAN NOT NULL DEFAULT false,
    "usedByRound" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Label_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Label_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LabelChange" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "labelId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "oldValue" TEXT,
    "newValue" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LabelChange_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Round" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "nLabels" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "backend" TEXT,
    "maskRate" REAL,
    "trainSeconds" REAL,
    "roundSeconds" REAL,
    "writeSeconds" REAL,
    "surrogateAccuracy" REAL,
    "config" JSONB NOT NULL,
    "seed" INTEGER NOT NULL,
    "codeVersion" TEXT NOT NULL,
    "resultsFile" TEXT,
    "jobId" TEXT,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "Round_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Estimate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "roundId" TEXT NOT NULL,
    "clusteringId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "value" REAL NOT NULL,
    "lo" REAL,
    "hi" REAL,
    "pBest" REAL,
    CONSTRAINT "Estimate_roundId_fkey" FOREIGN KEY ("roundId") REFERENCES "Round" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Estimate_clusteringId_fkey" FOREIGN KEY ("clusteringId") REFERENCES "Clustering" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProjectMember" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProjectMember_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ProjectMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "windowStartAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "blockedUntil" DATETIME
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "projectId" TEXT,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "runAfter" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseUntil" DATETIME,
    "progress" JSONB,
    "result" JSONB,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    CONSTRAINT "Job_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Project_dataPath_key" ON "Project"("dataPath");

-- CreateIndex
CREATE UNIQUE INDEX "ReferenceClass_projectId_index_key" ON "ReferenceClass"("projectId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "ReferenceClass_projectId_name_key" ON "ReferenceClass"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Clustering_projectId_name_key" ON "Clustering"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "EmbeddingSpace_projectId_name_key" ON "EmbeddingSpace"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Item_projectId_index_key" ON "Item"("projectId", "index");

-- CreateIndex
CREATE UNIQUE INDEX "Item_projectId_externalId_key" ON "Item"("projectId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenHash_key" ON "Invite"("tokenHash");

-- CreateIndex
CREATE INDEX "Invite_projectId_idx" ON "Invite"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Batch_projectId_index_key" ON "Batch"("projectId", "index");

-- CreateIndex
CREATE INDEX "Task_projectId_done_idx" ON "Task"("projectId", "done");

-- CreateIndex
CREATE INDEX "Task_batchId_idx" ON "Task"("batchId");

-- CreateIndex
CREATE UNIQUE INDEX "Task_projectId_drawOrder_key" ON "Task"("projectId", "drawOrder");

-- CreateIndex
CREATE INDEX "Lease_userId_expiresAt_idx" ON "Lease"("userId", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Lease_taskId_userId_key" ON "Lease"("taskId", "userId");

-- CreateIndex
CREATE INDEX "Label_projectId_createdAt_idx" ON "Label"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "Label_taskId_idx" ON "Label"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "Label_userId_idempotencyKey_key" ON "Label"("userId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "LabelChange_labelId_idx" ON "LabelChange"("labelId");

-- CreateIndex
CREATE UNIQUE INDEX "Round_projectId_index_key" ON "Round"("projectId", "index");

-- CreateIndex
CREATE INDEX "Estimate_clusteringId_idx" ON "Estimate"("clusteringId");

-- CreateIndex
CREATE UNIQUE INDEX "Estimate_roundId_clusteringId_metric_key" ON "Estimate"("roundId", "clusteringId", "metric");

-- CreateIndex
CREATE INDEX "ProjectMember_userId_idx" ON "ProjectMember"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ProjectMember_projectId_userId_key" ON "ProjectMember"("projectId", "userId");

-- CreateIndex
CREATE INDEX "Job_status_runAfter_idx" ON "Job"("status", "runAfter");

-- CreateIndex
CREATE INDEX "Job_projectId_idx" ON "Job"("projectId");

