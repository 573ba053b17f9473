import { Button, Flex, Result } from "antd";
import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Link } from "../../components/link";
import { APP_OPEN_TIMEOUT_MS, appUrl } from "../../lib/app-links";

/**
 * Hands this page's parameters to the app through its URL scheme. When the app takes over, this
 * page goes to the background; when it is still visible after a moment, the app is not installed
 * and the download page is shown instead.
 */
export function RedirectAppPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const target = appUrl(params);
  useEffect(() => {
    let appOpened = false;
    const onHide = () => {
      if (document.visibilityState === "hidden") appOpened = true;
    };
    document.addEventListener("visibilitychange", onHide);
    window.location.href = target;
    const fallback = window.setTimeout(() => {
      if (!appOpened) navigate("/download-app?from=redirect", { replace: true });
    }, APP_OPEN_TIMEOUT_MS);
    return () => {
      window.clearTimeout(fallback);
      document.removeEventListener("visibilitychange", onHide);
    };
  }, [target, navigate]);
  return (
    <Flex justify="center" align="center" style={{ minHeight: "100vh", padding: 16 }}>
      <Result
        status="info"
        title="Opening the app…"
        subTitle="If nothing happens, the app may not be installed on this device."
        extra={[
          <Button key="open" type="primary" href={target}>
            Open the app
          </Button>,
          <Link key="download" to="/download-app">
            <Button>Get the app</Button>
          </Link>,
        ]}
      />
    </Flex>
  );
}
