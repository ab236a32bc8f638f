-- CreateIndex
CREATE INDEX "Label_projectId_kind_withdrawn_idx" ON "Label"("projectId", "kind", "withdrawn");

