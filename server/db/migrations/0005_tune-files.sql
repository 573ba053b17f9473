CREATE TABLE "baked_tune_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"firmware_id" text NOT NULL,
	"tune_file_id" uuid,
	"tune_version" integer,
	"source_sha256" text,
	"patch_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"report" jsonb NOT NULL,
	"slot" integer,
	"expires_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tune_file_patches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"firmware_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"entries" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tune_file_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_uid" text NOT NULL,
	"tune_file_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"granted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tune_file_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tune_file_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"label" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"checksums" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tune_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dealer_uid" text NOT NULL,
	"firmware_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"price_cents" integer,
	"currency" text,
	"buyer_emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"may_view" boolean DEFAULT true NOT NULL,
	"may_download" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "firmware_id" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "stock_dump_sha256" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "stock_dump_size" bigint;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "stock_dump_slot" integer;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "stock_dump_uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "baked_tune_files" ADD CONSTRAINT "baked_tune_files_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baked_tune_files" ADD CONSTRAINT "baked_tune_files_tune_file_id_tune_files_id_fk" FOREIGN KEY ("tune_file_id") REFERENCES "public"."tune_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baked_tune_files" ADD CONSTRAINT "baked_tune_files_created_by_users_uid_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD CONSTRAINT "tune_file_purchases_customer_uid_users_uid_fk" FOREIGN KEY ("customer_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD CONSTRAINT "tune_file_purchases_tune_file_id_tune_files_id_fk" FOREIGN KEY ("tune_file_id") REFERENCES "public"."tune_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD CONSTRAINT "tune_file_purchases_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD CONSTRAINT "tune_file_purchases_granted_by_users_uid_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_file_versions" ADD CONSTRAINT "tune_file_versions_tune_file_id_tune_files_id_fk" FOREIGN KEY ("tune_file_id") REFERENCES "public"."tune_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_file_versions" ADD CONSTRAINT "tune_file_versions_created_by_users_uid_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_files" ADD CONSTRAINT "tune_files_dealer_uid_users_uid_fk" FOREIGN KEY ("dealer_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "baked_tune_files_vehicle_idx" ON "baked_tune_files" USING btree ("vehicle_id","created_at");--> statement-breakpoint
CREATE INDEX "baked_tune_files_tune_idx" ON "baked_tune_files" USING btree ("tune_file_id");--> statement-breakpoint
CREATE INDEX "baked_tune_files_patch_ids_idx" ON "baked_tune_files" USING gin ("patch_ids");--> statement-breakpoint
CREATE INDEX "tune_file_patches_firmware_ids_idx" ON "tune_file_patches" USING gin ("firmware_ids");--> statement-breakpoint
CREATE INDEX "tune_file_patches_updated_at_idx" ON "tune_file_patches" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "tune_file_patches_search_idx" ON "tune_file_patches" USING gin (("title" || ' ' || "description") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "tune_file_purchases_key" ON "tune_file_purchases" USING btree ("customer_uid","tune_file_id","vehicle_id");--> statement-breakpoint
CREATE INDEX "tune_file_purchases_vehicle_idx" ON "tune_file_purchases" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "tune_file_purchases_tune_idx" ON "tune_file_purchases" USING btree ("tune_file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tune_file_versions_number_key" ON "tune_file_versions" USING btree ("tune_file_id","number");--> statement-breakpoint
CREATE INDEX "tune_file_versions_sha_idx" ON "tune_file_versions" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "tune_files_dealer_idx" ON "tune_files" USING btree ("dealer_uid","updated_at","id");--> statement-breakpoint
CREATE INDEX "tune_files_firmware_idx" ON "tune_files" USING btree ("firmware_id","id");--> statement-breakpoint
CREATE INDEX "tune_files_published_idx" ON "tune_files" USING btree ("published","updated_at","id");--> statement-breakpoint
CREATE INDEX "tune_files_search_idx" ON "tune_files" USING gin (("title" || ' ' || "description" || ' ' || "firmware_id") gin_trgm_ops);