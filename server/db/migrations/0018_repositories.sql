CREATE TABLE "repository_access" (
	"repository_id" uuid NOT NULL,
	"user_uid" text NOT NULL,
	"granted_by" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "repository_access_repository_id_user_uid_pk" PRIMARY KEY("repository_id","user_uid")
);
--> statement-breakpoint
CREATE TABLE "tune_repositories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dealer_uid" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"free_for_members" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tune_files" ADD COLUMN "repository_id" uuid;--> statement-breakpoint
ALTER TABLE "repository_access" ADD CONSTRAINT "repository_access_repository_id_tune_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."tune_repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_access" ADD CONSTRAINT "repository_access_user_uid_users_uid_fk" FOREIGN KEY ("user_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tune_repositories" ADD CONSTRAINT "tune_repositories_dealer_uid_users_uid_fk" FOREIGN KEY ("dealer_uid") REFERENCES "public"."users"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repository_access_user_idx" ON "repository_access" USING btree ("user_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "tune_repositories_dealer_name_key" ON "tune_repositories" USING btree ("dealer_uid","name");--> statement-breakpoint
ALTER TABLE "tune_files" ADD CONSTRAINT "tune_files_repository_id_tune_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."tune_repositories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tune_files_repository_idx" ON "tune_files" USING btree ("repository_id");