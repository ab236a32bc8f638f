-- Data only: a project set to an estimator by a name it no longer goes by gets the name it has now
-- (lib/cereal/method/estimators.ts RETIRED_NAMES): the same estimator, so its rounds run as before.
UPDATE "Project" SET "estimator" = 'guarded' WHERE "estimator" = 'guarded-mean-plentiful';
