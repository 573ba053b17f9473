CREATE TABLE "data_log_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"log_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"channels" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text NOT NULL,
	"vehicle_id" uuid,
	"title" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"format" text NOT NULL,
	"row_count" integer NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"started_at" text,
	"meta" jsonb NOT NULL,
	"channels" jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"file_sha256" text NOT NULL,
	"columns_sha256" text NOT NULL,
	"columns_size" bigint NOT NULL,
	"dyno_profile" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text NOT NULL,
	"name" text NOT NULL,
	"vin" text,
	"dyno_profile" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_log_shares" ADD CONSTRAINT "data_log_shares_log_id_data_logs_id_fk" FOREIGN KEY ("log_id") REFERENCES "public"."data_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_logs" ADD CONSTRAINT "data_logs_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_logs" ADD CONSTRAINT "data_logs_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD CONSTRAINT "user_vehicles_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_log_shares_token_hash_key" ON "data_log_shares" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "data_log_shares_log_idx" ON "data_log_shares" USING btree ("log_id");--> statement-breakpoint
CREATE INDEX "data_logs_owner_created_idx" ON "data_logs" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "data_logs_vehicle_idx" ON "data_logs" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "data_logs_file_sha_idx" ON "data_logs" USING btree ("file_sha256");--> statement-breakpoint
CREATE INDEX "data_logs_columns_sha_idx" ON "data_logs" USING btree ("columns_sha256");--> statement-breakpoint
CREATE INDEX "data_logs_search_idx" ON "data_logs" USING gin (("title" || ' ' || "file_name" || ' ' || "notes") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_vehicles_owner_idx" ON "user_vehicles" USING btree ("owner_uid","id");