CREATE TABLE "data_log_markers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"log_id" uuid NOT NULL,
	"start_seconds" double precision NOT NULL,
	"end_seconds" double precision,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_log_markers_range_check" CHECK ("data_log_markers"."end_seconds" IS NULL OR "data_log_markers"."end_seconds" > "data_log_markers"."start_seconds")
);
--> statement-breakpoint
ALTER TABLE "data_log_markers" ADD CONSTRAINT "data_log_markers_log_id_data_logs_id_fk" FOREIGN KEY ("log_id") REFERENCES "public"."data_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_log_markers_log_idx" ON "data_log_markers" USING btree ("log_id","start_seconds");