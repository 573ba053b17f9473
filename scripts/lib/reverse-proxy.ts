/**
 * The cluster's reverse proxy: Debian's nginx in the foreground, with a configuration written for
 * the portal's traffic (docs/develop/deploy.md says why each setting is what it is).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureDebianPackage } from "./debian-packages";

export interface ProxyOptions {
  listenPort: number;
  /** The API instances, host:port each. */
  upstreams: readonly string[];
  /** Largest request body passed on: the data-log upload limit, with room for the multipart framing. */
  bodyLimitBytes: number;
  /** The folder for the configuration, the logs and nginx's temporary files. */
  prefix: string;
}

export function nginxConfig({ listenPort, upstreams, bodyLimitBytes, prefix }: ProxyOptions): string {
  const servers = upstreams.map((upstream) => `    server ${upstream} max_fails=1 fail_timeout=5s;`).join("\n");
  return `worker_processes 1;
pid ${path.join(prefix, "nginx.pid")};
error_log ${path.join(prefix, "error.log")} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${path.join(prefix, "client-body")};
  proxy_temp_path ${path.join(prefix, "proxy")};
  fastcgi_temp_path ${path.join(prefix, "fastcgi")};
  uwsgi_temp_path ${path.join(prefix, "uwsgi")};
  scgi_temp_path ${path.join(prefix, "scgi")};
  upstream portal {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${listenPort};
    client_max_body_size ${Math.ceil(bodyLimitBytes / 2 ** 20) + 1}m;
    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Event streams and large uploads go through as they come, never held whole by the proxy.
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 15m;
      proxy_send_timeout 15m;
      # An instance that refuses the connection or dies before answering: the request goes to the other.
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

/** Writes the configuration and runs nginx in the foreground; stopped with SIGTERM (or SIGQUIT, gracefully). */
export function startNginx(options: ProxyOptions): ChildProcess {
  const nginx = ensureDebianPackage("nginx", ["/usr/sbin/nginx"]);
  mkdirSync(options.prefix, { recursive: true });
  const config = path.join(options.prefix, "nginx.conf");
  writeFileSync(config, nginxConfig(options));
  return spawn(nginx, ["-p", options.prefix, "-c", config, "-g", "daemon off;"], { stdio: "inherit" });
}
