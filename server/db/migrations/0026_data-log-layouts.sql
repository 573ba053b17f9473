CREATE TABLE "data_log_layouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text NOT NULL,
	"format" text NOT NULL,
	"name" text NOT NULL,
	"panes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_log_shares" ADD COLUMN "layout" jsonb;--> statement-breakpoint
ALTER TABLE "data_log_layouts" ADD CONSTRAINT "data_log_layouts_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_log_layouts_owner_format_name_key" ON "data_log_layouts" USING btree ("owner_uid","format",lower("name"));