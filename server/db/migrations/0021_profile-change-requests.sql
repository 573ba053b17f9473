CREATE TABLE "profile_change_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_change_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uid" text NOT NULL,
	"dealer_profile_id" uuid NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"comment" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision_note" text
);
--> statement-breakpoint
ALTER TABLE "dealer_profiles" ADD COLUMN "logo_sha256" text;--> statement-breakpoint
ALTER TABLE "profile_change_files" ADD CONSTRAINT "profile_change_files_request_id_profile_change_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."profile_change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_change_requests" ADD CONSTRAINT "profile_change_requests_user_uid_users_uid_fk" FOREIGN KEY ("user_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_change_requests" ADD CONSTRAINT "profile_change_requests_dealer_profile_id_dealer_profiles_id_fk" FOREIGN KEY ("dealer_profile_id") REFERENCES "public"."dealer_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_change_files_request_idx" ON "profile_change_files" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_change_requests_one_open_key" ON "profile_change_requests" USING btree ("user_uid") WHERE "profile_change_requests"."state" = 'open';--> statement-breakpoint
CREATE INDEX "profile_change_requests_user_decided_idx" ON "profile_change_requests" USING btree ("user_uid","decided_at");--> statement-breakpoint
CREATE INDEX "profile_change_requests_state_submitted_idx" ON "profile_change_requests" USING btree ("state","submitted_at","id");