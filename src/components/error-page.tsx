import { Button, Collapse, Result, Typography } from "antd";
import { useNavigate } from "react-router";
import type { ApiError } from "../../contracts/errors";

export interface ErrorPageProps {
  error: ApiError;
  /** Clears the error state before going home (fatal errors). */
  onGoHome?: () => void;
}

/** Status code as the heading, message and description, details when the error carries data. */
export function ErrorPage({ error, onGoHome }: ErrorPageProps) {
  const navigate = useNavigate();
  const goHome = () => {
    onGoHome?.();
    navigate("/");
  };
  return (
    <Result
      status={
        error.statusCode === 403
          ? "403"
          : error.statusCode === 404
            ? "404"
            : error.statusCode >= 500
              ? "500"
              : "warning"
      }
      title={
        <Typography.Title level={1} style={{ margin: 0 }}>
          {error.statusCode}
        </Typography.Title>
      }
      subTitle={
        <>
          <Typography.Title level={4} style={{ marginTop: 0 }} data-testid="error-message">
            {error.message}
          </Typography.Title>
          {error.description && <Typography.Paragraph type="secondary">{error.description}</Typography.Paragraph>}
        </>
      }
      extra={
        <>
          <Button type="primary" onClick={goHome}>
            Go Home
          </Button>
          {error.data !== undefined && error.data !== null && (
            <Collapse
              style={{ marginTop: 24, textAlign: "left" }}
              items={[
                {
                  key: "details",
                  label: "Details",
                  children: (
                    <pre style={{ whiteSpace: "pre-wrap", margin: 0 }}>{JSON.stringify(error.data, null, 2)}</pre>
                  ),
                },
              ]}
            />
          )}
        </>
      }
    />
  );
}
