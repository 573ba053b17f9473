import { Button, Result } from "antd";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { Link } from "../../components/link";

export const APP_URL_SCHEME = "tuningportal";

/** Hands this page's parameters to the app through its URL scheme; without the app, offers the download page. */
export function RedirectAppPage() {
  const [params] = useSearchParams();
  const target = `${APP_URL_SCHEME}://open?${params.toString()}`;
  useEffect(() => {
    window.location.href = target;
  }, [target]);
  return (
    <Result
      status="info"
      title="Opening the app…"
      subTitle="If nothing happens, the app may not be installed on this device."
      extra={[
        <a key="open" href={target}>
          <Button type="primary">Open the app</Button>
        </a>,
        <Link key="download" to="/download-app">
          <Button>Get the app</Button>
        </Link>,
      ]}
    />
  );
}
