CREATE TABLE "flash_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"baked_tune_file_id" uuid,
	"tune_file_id" uuid,
	"tune_title" text,
	"tune_version" integer,
	"kind" text NOT NULL,
	"sha256" text NOT NULL,
	"result" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"duration_ms" integer,
	"flashed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reported_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_baked_tune_file_id_baked_tune_files_id_fk" FOREIGN KEY ("baked_tune_file_id") REFERENCES "public"."baked_tune_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_tune_file_id_tune_files_id_fk" FOREIGN KEY ("tune_file_id") REFERENCES "public"."tune_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_reported_by_users_uid_fk" FOREIGN KEY ("reported_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flash_logs_vehicle_flashed_idx" ON "flash_logs" USING btree ("vehicle_id","flashed_at" DESC NULLS LAST,"id");