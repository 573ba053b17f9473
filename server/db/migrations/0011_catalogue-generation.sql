CREATE TABLE "catalogue_generation" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogue_generation" ADD CONSTRAINT "catalogue_generation_one_row" CHECK ("id" = 1);--> statement-breakpoint
INSERT INTO "catalogue_generation" ("id", "generation") VALUES (1, 0);--> statement-breakpoint
-- Deferred to the commit: the row's lock is the last a writer takes, held for the shortest time and never before another.
CREATE FUNCTION "bump_catalogue_generation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalogue_generation" SET "generation" = "generation" + 1 WHERE "id" = 1;
  -- Sent at the commit, once per transaction: the embedded database's cache listens instead of asking.
  PERFORM pg_notify('catalogue_generation', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "firmware_support_generation" AFTER INSERT OR UPDATE OR DELETE ON "firmware_support" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalogue_generation"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "tune_file_patches_generation" AFTER INSERT OR UPDATE OR DELETE ON "tune_file_patches" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_catalogue_generation"();--> statement-breakpoint
CREATE TRIGGER "firmware_support_truncated" AFTER TRUNCATE ON "firmware_support" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_generation"();--> statement-breakpoint
CREATE TRIGGER "tune_file_patches_truncated" AFTER TRUNCATE ON "tune_file_patches" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_generation"();
