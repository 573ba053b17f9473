CREATE TABLE "flash_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"granted_to" text NOT NULL,
	"kind" text NOT NULL,
	"baked_tune_file_id" uuid,
	"tune_file_id" uuid,
	"sha256" text NOT NULL,
	"vin" text NOT NULL,
	"ecu_serial" text NOT NULL,
	"software_id" text NOT NULL,
	"firmware_id" text NOT NULL,
	"battery_volts" double precision NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flash_log_steps" (
	"flash_log_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"step" text NOT NULL,
	"block" integer,
	"percent" double precision,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"duration_ms" integer,
	"retries" integer DEFAULT 0 NOT NULL,
	"request" text,
	"response" text,
	"nrc" integer,
	"message" text DEFAULT '' NOT NULL,
	CONSTRAINT "flash_log_steps_pk" PRIMARY KEY("flash_log_id","seq")
);
--> statement-breakpoint
CREATE TABLE "vehicle_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"flash_log_id" uuid,
	"vin" text,
	"ecu_serial" text,
	"software_id" text,
	"hardware_number" text,
	"bootloader_version" text,
	"calibration_id" text,
	"firmware_id" text,
	"fault_codes" text[] DEFAULT '{}' NOT NULL,
	"battery_volts" double precision,
	"flash_counter" integer,
	"programming_attempts" integer,
	"adapter" jsonb,
	"app_version" text,
	"recorded_by" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "ecu_serial" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "software_id" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "hardware_number" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "bootloader_version" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "modifications" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "notes" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "fuel" text;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "device_attributes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "last_connected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_vehicles" ADD COLUMN "last_battery_volts" double precision;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "last_report_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "grant_id" uuid;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "recovers_id" uuid;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "resume_from_block" integer;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "firmware_id" text;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "ecu_family" text;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "adapter_kind" text;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "adapter_firmware" text;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "app_version" text;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "battery_start_volts" double precision;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "battery_end_volts" double precision;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "identity_before" jsonb;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "identity_after" jsonb;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "failed_step" text;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "failed_block" integer;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD COLUMN "failed_nrc" integer;--> statement-breakpoint
ALTER TABLE "flash_grants" ADD CONSTRAINT "flash_grants_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_grants" ADD CONSTRAINT "flash_grants_granted_to_users_uid_fk" FOREIGN KEY ("granted_to") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_grants" ADD CONSTRAINT "flash_grants_baked_tune_file_id_baked_tune_files_id_fk" FOREIGN KEY ("baked_tune_file_id") REFERENCES "public"."baked_tune_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_grants" ADD CONSTRAINT "flash_grants_tune_file_id_tune_files_id_fk" FOREIGN KEY ("tune_file_id") REFERENCES "public"."tune_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_log_steps" ADD CONSTRAINT "flash_log_steps_flash_log_id_flash_logs_id_fk" FOREIGN KEY ("flash_log_id") REFERENCES "public"."flash_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_snapshots" ADD CONSTRAINT "vehicle_snapshots_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_snapshots" ADD CONSTRAINT "vehicle_snapshots_flash_log_id_flash_logs_id_fk" FOREIGN KEY ("flash_log_id") REFERENCES "public"."flash_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_snapshots" ADD CONSTRAINT "vehicle_snapshots_recorded_by_users_uid_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("uid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flash_grants_vehicle_idx" ON "flash_grants" USING btree ("vehicle_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "vehicle_snapshots_vehicle_idx" ON "vehicle_snapshots" USING btree ("vehicle_id","recorded_at" DESC NULLS LAST,"id");--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_grant_id_flash_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."flash_grants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_recovers_id_flash_logs_id_fk" FOREIGN KEY ("recovers_id") REFERENCES "public"."flash_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_vehicles_owner_vin_ecu_key" ON "user_vehicles" USING btree ("owner_uid","vin","ecu_serial") WHERE "user_vehicles"."vin" IS NOT NULL AND "user_vehicles"."ecu_serial" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_vehicles_vin_idx" ON "user_vehicles" USING btree ("vin");--> statement-breakpoint
CREATE INDEX "flash_logs_running_idx" ON "flash_logs" USING btree ("last_report_at") WHERE "flash_logs"."result" = 'running';--> statement-breakpoint
ALTER TABLE "flash_logs" ADD CONSTRAINT "flash_logs_grant_key" UNIQUE("grant_id");