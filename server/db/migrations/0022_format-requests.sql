CREATE TABLE "format_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"tool" text NOT NULL,
	"note" text,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"file_sha256" text,
	"refusal_code" text NOT NULL,
	"refusal_message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"closing_note" text
);
--> statement-breakpoint
ALTER TABLE "format_requests" ADD CONSTRAINT "format_requests_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "format_requests_owner_state_idx" ON "format_requests" USING btree ("owner_uid","state");--> statement-breakpoint
CREATE INDEX "format_requests_created_idx" ON "format_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "format_requests_file_idx" ON "format_requests" USING btree ("file_sha256");