-- AlterTable
ALTER TABLE "Round" ADD COLUMN "surrogateEce" REAL;

