CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_uid" text,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"subject_uid" text,
	"before" jsonb,
	"after" jsonb,
	"request_id" text
);
--> statement-breakpoint
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
DROP INDEX "users_role_idx";--> statement-breakpoint
ALTER TABLE "dealer_profiles" ADD COLUMN "logo_sha256" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profile_change_files" ADD CONSTRAINT "profile_change_files_request_id_profile_change_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."profile_change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_change_requests" ADD CONSTRAINT "profile_change_requests_user_uid_users_uid_fk" FOREIGN KEY ("user_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_change_requests" ADD CONSTRAINT "profile_change_requests_dealer_profile_id_dealer_profiles_id_fk" FOREIGN KEY ("dealer_profile_id") REFERENCES "public"."dealer_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_uid","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_uid","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "audit_events_action_idx" ON "audit_events" USING btree ("action" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "profile_change_files_request_idx" ON "profile_change_files" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_change_requests_one_open_key" ON "profile_change_requests" USING btree ("user_uid") WHERE "profile_change_requests"."state" = 'open';--> statement-breakpoint
CREATE INDEX "profile_change_requests_user_decided_idx" ON "profile_change_requests" USING btree ("user_uid","decided_at");--> statement-breakpoint
CREATE INDEX "profile_change_requests_state_submitted_idx" ON "profile_change_requests" USING btree ("state","submitted_at","id");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","uid");--> statement-breakpoint
CREATE INDEX "users_role_last_sign_in_idx" ON "users" USING btree ("role","last_sign_in_at","uid");--> statement-breakpoint
CREATE INDEX "users_last_sign_in_idx" ON "users" USING btree ("last_sign_in_at","uid");--> statement-breakpoint
CREATE INDEX "users_email_sort_idx" ON "users" USING btree ("email","uid");--> statement-breakpoint
CREATE INDEX "users_disabled_idx" ON "users" USING btree ("created_at","uid") WHERE "users"."disabled";--> statement-breakpoint
CREATE INDEX "users_deleted_idx" ON "users" USING btree ("created_at","uid") WHERE "users"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ((coalesce("email", '') || ' ' || coalesce("display_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role","created_at","uid");--> statement-breakpoint
-- custom: the audit trail is append-only, for every role of the database including ours.
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_no_update BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
