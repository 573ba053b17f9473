-- Trigram indexes below back ILIKE search on list endpoints (PGlite loads the extension in openPglite).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "computed_descriptors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"variable" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"expression" text NOT NULL,
	"variables" text[] DEFAULT '{}'::text[] NOT NULL,
	"decimals" integer DEFAULT 2 NOT NULL,
	"min" real,
	"max" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firmware_id" text NOT NULL,
	"label" text NOT NULL,
	"security_level" integer NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_support" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"firmware_id" text NOT NULL,
	"ecu_family" text NOT NULL,
	"manufacturer" text NOT NULL,
	"image_size" integer NOT NULL,
	"identify" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"blocks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"checksums" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"flashing" jsonb,
	"definition" jsonb,
	"notes" text DEFAULT '' NOT NULL,
	"stock_sha256" text,
	"stock_size" integer,
	"stock_uploaded_at" timestamp with time zone,
	"flashing_enabled" boolean DEFAULT false NOT NULL,
	"bootloader_sha256" text,
	"bootloader_size" integer,
	"bootloader_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "obd_functions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"request" text NOT NULL,
	"expected_response" text NOT NULL,
	"firmware_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"confirmation_text" text,
	"safety_level" text DEFAULT 'none' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pid_descriptors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"variable" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"address" text NOT NULL,
	"length" integer NOT NULL,
	"signed" boolean DEFAULT false NOT NULL,
	"endian" text DEFAULT 'big' NOT NULL,
	"expression" text DEFAULT 'X' NOT NULL,
	"decimals" integer DEFAULT 2 NOT NULL,
	"min" real,
	"max" real,
	"warn_min" real,
	"warn_max" real,
	"smoothing" integer DEFAULT 0 NOT NULL,
	"firmware_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pid_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"descriptor_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"sample_rate_hz" real NOT NULL,
	"firmware_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"vehicle_family" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "secret_reveals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"secret_id" uuid NOT NULL,
	"revealed_by" text NOT NULL,
	"revealed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"requester_uid" text NOT NULL,
	"vin" text NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"year" integer NOT NULL,
	"ecu_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"read_file_sha256" text,
	"read_file_size" integer,
	"status" text DEFAULT 'new' NOT NULL,
	"notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"firmware_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supported_vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"generation" text DEFAULT '' NOT NULL,
	"engine" text NOT NULL,
	"year_from" integer NOT NULL,
	"year_to" integer,
	"ecu" text NOT NULL,
	"firmware_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "secret_reveals" ADD CONSTRAINT "secret_reveals_secret_id_firmware_secrets_id_fk" FOREIGN KEY ("secret_id") REFERENCES "public"."firmware_secrets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secret_reveals" ADD CONSTRAINT "secret_reveals_revealed_by_users_uid_fk" FOREIGN KEY ("revealed_by") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_requester_uid_users_uid_fk" FOREIGN KEY ("requester_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "computed_descriptors_variable_key" ON "computed_descriptors" USING btree ("variable");--> statement-breakpoint
CREATE INDEX "computed_descriptors_name_idx" ON "computed_descriptors" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "computed_descriptors_updated_at_idx" ON "computed_descriptors" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "computed_descriptors_variables_idx" ON "computed_descriptors" USING gin ("variables");--> statement-breakpoint
CREATE INDEX "computed_descriptors_search_idx" ON "computed_descriptors" USING gin (("name" || ' ' || "variable" || ' ' || "expression") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_secrets_firmware_label_key" ON "firmware_secrets" USING btree ("firmware_id","label");--> statement-breakpoint
CREATE INDEX "firmware_secrets_search_idx" ON "firmware_secrets" USING gin (("firmware_id" || ' ' || "label") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_support_firmware_id_key" ON "firmware_support" USING btree ("firmware_id");--> statement-breakpoint
CREATE INDEX "firmware_support_manufacturer_idx" ON "firmware_support" USING btree ("manufacturer","firmware_id");--> statement-breakpoint
CREATE INDEX "firmware_support_ecu_family_idx" ON "firmware_support" USING btree ("ecu_family","firmware_id");--> statement-breakpoint
CREATE INDEX "firmware_support_updated_at_idx" ON "firmware_support" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "firmware_support_search_idx" ON "firmware_support" USING gin (("firmware_id" || ' ' || "ecu_family" || ' ' || "manufacturer") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "obd_functions_name_key" ON "obd_functions" USING btree ("name");--> statement-breakpoint
CREATE INDEX "obd_functions_category_idx" ON "obd_functions" USING btree ("category","name");--> statement-breakpoint
CREATE INDEX "obd_functions_updated_at_idx" ON "obd_functions" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "obd_functions_firmware_ids_idx" ON "obd_functions" USING gin ("firmware_ids");--> statement-breakpoint
CREATE INDEX "obd_functions_search_idx" ON "obd_functions" USING gin (("name" || ' ' || "description") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "pid_descriptors_variable_key" ON "pid_descriptors" USING btree ("variable");--> statement-breakpoint
CREATE INDEX "pid_descriptors_name_idx" ON "pid_descriptors" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "pid_descriptors_source_idx" ON "pid_descriptors" USING btree ("source","name","id");--> statement-breakpoint
CREATE INDEX "pid_descriptors_updated_at_idx" ON "pid_descriptors" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "pid_descriptors_firmware_ids_idx" ON "pid_descriptors" USING gin ("firmware_ids");--> statement-breakpoint
CREATE INDEX "pid_descriptors_search_idx" ON "pid_descriptors" USING gin (("name" || ' ' || "variable" || ' ' || "unit") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "pid_templates_name_key" ON "pid_templates" USING btree ("name");--> statement-breakpoint
CREATE INDEX "pid_templates_updated_at_idx" ON "pid_templates" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "pid_templates_descriptor_ids_idx" ON "pid_templates" USING gin ("descriptor_ids");--> statement-breakpoint
CREATE INDEX "pid_templates_firmware_ids_idx" ON "pid_templates" USING gin ("firmware_ids");--> statement-breakpoint
CREATE INDEX "pid_templates_search_idx" ON "pid_templates" USING gin (("name" || ' ' || "vehicle_family") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "secret_reveals_secret_idx" ON "secret_reveals" USING btree ("secret_id","revealed_at");--> statement-breakpoint
CREATE INDEX "support_requests_status_idx" ON "support_requests" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "support_requests_created_at_idx" ON "support_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "support_requests_requester_idx" ON "support_requests" USING btree ("requester_uid");--> statement-breakpoint
CREATE INDEX "support_requests_firmware_idx" ON "support_requests" USING btree ("firmware_id");--> statement-breakpoint
CREATE INDEX "support_requests_search_idx" ON "support_requests" USING gin (("vin" || ' ' || "make" || ' ' || "model") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "supported_vehicles_make_model_idx" ON "supported_vehicles" USING btree ("make","model","id");--> statement-breakpoint
CREATE INDEX "supported_vehicles_year_idx" ON "supported_vehicles" USING btree ("year_from","id");--> statement-breakpoint
CREATE INDEX "supported_vehicles_firmware_ids_idx" ON "supported_vehicles" USING gin ("firmware_ids");--> statement-breakpoint
CREATE INDEX "supported_vehicles_search_idx" ON "supported_vehicles" USING gin (("make" || ' ' || "model" || ' ' || "generation" || ' ' || "engine" || ' ' || "ecu") gin_trgm_ops);