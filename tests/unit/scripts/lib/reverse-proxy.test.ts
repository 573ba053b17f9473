import { describe, expect, it } from "vitest";
import { nginxConfig } from "../../../../scripts/lib/reverse-proxy";

describe("the cluster's nginx configuration", () => {
  const config = nginxConfig({
    listenPort: 8080,
    upstreams: ["127.0.0.1:8081", "127.0.0.1:8082"],
    bodyLimitBytes: 256 * 2 ** 20,
    prefix: "/tmp/cluster-nginx",
  });

  it("spreads requests over every instance and moves on from one that fails", () => {
    expect(config).toContain("server 127.0.0.1:8081 max_fails=1 fail_timeout=5s;");
    expect(config).toContain("server 127.0.0.1:8082 max_fails=1 fail_timeout=5s;");
    expect(config).toContain("proxy_next_upstream error timeout;");
    expect(config).toContain("listen 127.0.0.1:8080;");
  });

  it("streams event streams and uploads through unbuffered, and lets the largest data log in", () => {
    expect(config).toContain("proxy_buffering off;");
    expect(config).toContain("proxy_request_buffering off;");
    expect(config).toContain("client_max_body_size 257m;");
    expect(config).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
  });

  it("keeps its files under its own folder", () => {
    expect(config).toContain("pid /tmp/cluster-nginx/nginx.pid;");
    expect(config).toContain("client_body_temp_path /tmp/cluster-nginx/client-body;");
  });
});
