DROP INDEX "support_requests_requester_idx";--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "history" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "support_requests_requester_idx" ON "support_requests" USING btree ("requester_uid","created_at","id");--> statement-breakpoint
-- Requests moved on before the history was kept: their current status, as of their last change, without a note.
UPDATE "support_requests" SET "history" = jsonb_build_array(jsonb_build_object('at', to_jsonb("updated_at"), 'status', "status", 'note', NULL)) WHERE "status" <> 'new';
