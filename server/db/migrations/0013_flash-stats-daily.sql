CREATE TABLE "flash_failures_daily" (
	"day" date NOT NULL,
	"firmware_id" text NOT NULL,
	"ecu_family" text NOT NULL,
	"adapter_kind" text NOT NULL,
	"app_version" text NOT NULL,
	"kind" text NOT NULL,
	"result" text NOT NULL,
	"failed_step" text NOT NULL,
	"failed_nrc" integer NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "flash_failures_daily_pk" PRIMARY KEY("day","firmware_id","ecu_family","adapter_kind","app_version","kind","result","failed_step","failed_nrc")
);
--> statement-breakpoint
CREATE TABLE "flash_stats_daily" (
	"day" date NOT NULL,
	"firmware_id" text NOT NULL,
	"ecu_family" text NOT NULL,
	"adapter_kind" text NOT NULL,
	"app_version" text NOT NULL,
	"kind" text NOT NULL,
	"success" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"recovered" integer DEFAULT 0 NOT NULL,
	"abandoned" integer DEFAULT 0 NOT NULL,
	"aborted" integer DEFAULT 0 NOT NULL,
	"duration_histogram" integer[] NOT NULL,
	CONSTRAINT "flash_stats_daily_pk" PRIMARY KEY("day","firmware_id","ecu_family","adapter_kind","app_version","kind")
);
