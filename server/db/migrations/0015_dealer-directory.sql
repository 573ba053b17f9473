ALTER TABLE "dealer_profiles" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "dealer_profiles" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "dealer_profiles" ADD COLUMN "status_changed_by" text;--> statement-breakpoint
ALTER TABLE "dealer_profiles" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "dealer_profiles_status_name_idx" ON "dealer_profiles" USING btree ("status","business_name","id");