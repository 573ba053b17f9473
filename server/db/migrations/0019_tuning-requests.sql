CREATE TABLE "tuning_request_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_uid" text,
	"actor" text NOT NULL,
	"kind" text NOT NULL,
	"from_state" text,
	"to_state" text,
	"text" text DEFAULT '' NOT NULL,
	"log_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"file_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tuning_request_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"vehicle_id" uuid,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"sender_uid" text NOT NULL,
	"sender" text NOT NULL,
	"revision" integer,
	"note" text DEFAULT '' NOT NULL,
	"changes_from_stock" jsonb,
	"changes_from_previous" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tuning_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" serial NOT NULL,
	"customer_uid" text NOT NULL,
	"dealer_uid" text NOT NULL,
	"vehicle_id" uuid,
	"vehicle_name" text NOT NULL,
	"vin" text,
	"ecu_serial" text,
	"software_id" text,
	"firmware_id" text NOT NULL,
	"stock_sha256" text NOT NULL,
	"stock_size" bigint NOT NULL,
	"questionnaire" jsonb NOT NULL,
	"log_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"state" text DEFAULT 'submitted' NOT NULL,
	"assignee" text,
	"quote_price_cents" integer,
	"quote_currency" text,
	"quote_expected_days" integer,
	"quoted_at" timestamp with time zone,
	"tune_file_id" uuid,
	"revisions" integer DEFAULT 0 NOT NULL,
	"free_revision_days" integer NOT NULL,
	"first_delivered_at" timestamp with time zone,
	"last_delivered_at" timestamp with time zone,
	"last_customer_action_at" timestamp with time zone DEFAULT now() NOT NULL,
	"customer_read_at" timestamp with time zone,
	"dealer_read_at" timestamp with time zone,
	"closed_reason" text,
	"pending_close" jsonb,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tuning_requests_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "dealer_profiles" ADD COLUMN "free_revision_days" integer DEFAULT 21 NOT NULL;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD COLUMN "vin" text;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD COLUMN "ecu_serial" text;--> statement-breakpoint
ALTER TABLE "tune_file_purchases" ADD COLUMN "software_id" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tuning_request_id" uuid;--> statement-breakpoint
ALTER TABLE "tuning_request_events" ADD CONSTRAINT "tuning_request_events_request_id_tuning_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tuning_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuning_request_files" ADD CONSTRAINT "tuning_request_files_request_id_tuning_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."tuning_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuning_request_files" ADD CONSTRAINT "tuning_request_files_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuning_requests" ADD CONSTRAINT "tuning_requests_customer_uid_users_uid_fk" FOREIGN KEY ("customer_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuning_requests" ADD CONSTRAINT "tuning_requests_dealer_uid_users_uid_fk" FOREIGN KEY ("dealer_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuning_requests" ADD CONSTRAINT "tuning_requests_vehicle_id_user_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."user_vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tuning_requests" ADD CONSTRAINT "tuning_requests_tune_file_id_tune_files_id_fk" FOREIGN KEY ("tune_file_id") REFERENCES "public"."tune_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tuning_request_events_request_idx" ON "tuning_request_events" USING btree ("request_id","at","id");--> statement-breakpoint
CREATE INDEX "tuning_request_files_request_idx" ON "tuning_request_files" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "tuning_request_files_vehicle_idx" ON "tuning_request_files" USING btree ("vehicle_id","created_at");--> statement-breakpoint
CREATE INDEX "tuning_requests_dealer_idx" ON "tuning_requests" USING btree ("dealer_uid","state","updated_at","id");--> statement-breakpoint
CREATE INDEX "tuning_requests_customer_idx" ON "tuning_requests" USING btree ("customer_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "tuning_requests_vehicle_idx" ON "tuning_requests" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "tuning_requests_delivered_idx" ON "tuning_requests" USING btree ("last_delivered_at") WHERE "tuning_requests"."state" = 'delivered';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tuning_request_id_tuning_requests_id_fk" FOREIGN KEY ("tuning_request_id") REFERENCES "public"."tuning_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_open_request_key" ON "orders" USING btree ("tuning_request_id") WHERE "orders"."status" IN ('created', 'failed', 'paid');--> statement-breakpoint
-- A licence is bound to the car as it is when the licence is made, whoever inserts it (a payment
-- event, a free tune, a grant, a delivered revision, the seed): copied here, once.
CREATE FUNCTION tune_file_purchases_bind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.vin IS NULL AND NEW.ecu_serial IS NULL AND NEW.software_id IS NULL THEN
    SELECT v.vin, v.ecu_serial, v.software_id INTO NEW.vin, NEW.ecu_serial, NEW.software_id FROM user_vehicles v WHERE v.id = NEW.vehicle_id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER tune_file_purchases_bind BEFORE INSERT ON tune_file_purchases FOR EACH ROW EXECUTE FUNCTION tune_file_purchases_bind();
--> statement-breakpoint
UPDATE tune_file_purchases p SET vin = v.vin, ecu_serial = v.ecu_serial, software_id = v.software_id FROM user_vehicles v WHERE v.id = p.vehicle_id;
