import { Alert, Button, Col, Empty, Flex, Form, Input, InputNumber, Row, Select, Space, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { DEFAULT_DYNO_PROFILE, type DynoProfile, dynoProfileSchema } from "../../../../contracts/data-logs";
import { SizedBox } from "../../../components/sized-box";
import { type DynoPull, KW_PER_HP, metresPerSecondPer } from "../../../lib/dyno";
import type { ChartChannel } from "./channels";
import { matchingPull } from "./dyno-pull-match";

export interface DynoRequest {
  profile: DynoProfile;
  rpmId: string;
  speedId?: string;
  gearId?: string;
  gear?: number;
  throttleId?: string;
}

interface DynoPanelProps {
  channels: ChartChannel[];
  profile: DynoProfile | null;
  run: (request: DynoRequest) => Promise<DynoPull[]>;
  /** Absent in read-only views. */
  onSave?: (profile: DynoProfile) => void;
  saving?: boolean;
  /** Where a saved profile is kept (the log's vehicle, or the log alone), said next to the save button. */
  keptWith?: string;
  /** The pull chosen in the log's pull list: shown once the dyno has run. */
  chosen?: { startTime: number; endTime: number } | null;
}

interface FormValues extends Omit<DynoProfile, "gearRatios" | "drivelineLoss"> {
  gearRatios: string;
  drivelinePercent: number;
  rpmId?: string;
  speedId?: string;
  gearId?: string;
  gear?: number;
  throttleId?: string;
}

const find = (channels: ChartChannel[], test: (channel: ChartChannel) => boolean) => channels.find(test)?.id;

/** Estimated wheel and crank power and torque per pull, from the vehicle profile entered here. */
export function DynoPanel({ channels, profile, run, onSave, saving, keptWith, chosen }: DynoPanelProps) {
  const [form] = Form.useForm<FormValues>();
  const [pulls, setPulls] = useState<DynoPull[] | null>(null);
  const [selected, setSelected] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const chosenIndex = pulls && chosen ? matchingPull(pulls, chosen) : -1;
  // A pull picked in the list after a run is shown too.
  useEffect(() => {
    if (chosenIndex >= 0) setSelected(chosenIndex);
  }, [chosenIndex]);
  const options = channels.map((channel) => ({
    value: channel.id,
    label: `${channel.name}${channel.unit ? ` (${channel.unit})` : ""}`,
  }));

  const initial = useMemo<FormValues>(() => {
    const base = profile ?? DEFAULT_DYNO_PROFILE;
    return {
      ...base,
      gearRatios: base.gearRatios.join(", "),
      drivelinePercent: Math.round(base.drivelineLoss * 100),
      rpmId:
        find(channels, (c) => c.unit.toLowerCase() === "rpm") ??
        find(channels, (c) => /rpm|engine speed/i.test(c.name)),
      speedId: find(channels, (c) => metresPerSecondPer(c.unit) !== null),
      gearId: find(channels, (c) => /^gear/i.test(c.name)),
      throttleId: find(channels, (c) => c.unit === "%" && /throttle|pedal|accel/i.test(c.name)),
    };
  }, [profile, channels]);

  const profileOf = (values: FormValues): DynoProfile | string => {
    const parsed = dynoProfileSchema.safeParse({
      massKg: values.massKg,
      dragCoefficient: values.dragCoefficient,
      frontalAreaM2: values.frontalAreaM2,
      rollingCoefficient: values.rollingCoefficient,
      tyre: values.tyre,
      gearRatios: String(values.gearRatios)
        .split(/[,\s]+/)
        .filter(Boolean)
        .map(Number),
      finalDrive: values.finalDrive,
      drivelineLoss: (values.drivelinePercent ?? 0) / 100,
    });
    return parsed.success
      ? parsed.data
      : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
  };

  const calculate = async () => {
    const values = form.getFieldsValue(true) as FormValues;
    const checked = profileOf(values);
    if (typeof checked === "string") return setError(checked);
    if (!values.rpmId) return setError("Choose the engine speed channel.");
    if (!values.speedId && !values.gearId && !values.gear)
      return setError("Choose a speed channel, a gear channel or the gear of the pull.");
    setError(null);
    setRunning(true);
    try {
      const result = await run({
        profile: checked,
        rpmId: values.rpmId,
        speedId: values.speedId,
        gearId: values.gearId,
        gear: values.gear,
        throttleId: values.throttleId,
      });
      setPulls(result);
      setSelected(chosen ? Math.max(0, matchingPull(result, chosen)) : 0);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setRunning(false);
    }
  };

  const save = () => {
    const checked = profileOf(form.getFieldsValue(true) as FormValues);
    if (typeof checked === "string") setError(checked);
    else onSave?.(checked);
  };

  const pull = pulls?.[selected];
  return (
    <Flex vertical gap={12}>
      <Form form={form} layout="vertical" size="small" initialValues={initial} key={JSON.stringify(initial)}>
        <Row gutter={8}>
          <Col span={8}>
            <Form.Item label="Mass (kg, with driver)" name="massKg">
              <InputNumber min={100} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Drag coefficient Cd" name="dragCoefficient">
              <InputNumber step={0.01} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Frontal area (m²)" name="frontalAreaM2">
              <InputNumber step={0.1} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Rolling coefficient" name="rollingCoefficient">
              <InputNumber step={0.001} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item label="Tyre (width / aspect R rim)">
              <Space.Compact>
                <Form.Item name={["tyre", "widthMm"]} noStyle>
                  <InputNumber aria-label="Tyre width" />
                </Form.Item>
                <Form.Item name={["tyre", "aspectPercent"]} noStyle>
                  <InputNumber aria-label="Tyre aspect" />
                </Form.Item>
                <Form.Item name={["tyre", "rimInches"]} noStyle>
                  <InputNumber aria-label="Rim size" />
                </Form.Item>
              </Space.Compact>
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="Gear ratios" name="gearRatios">
              <Input />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item label="Final drive" name="finalDrive">
              <InputNumber step={0.01} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item label="Driveline loss (%)" name="drivelinePercent">
              <InputNumber min={0} max={50} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Engine speed" name="rpmId">
              <Select options={options} showSearch optionFilterProp="label" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Vehicle speed" name="speedId">
              <Select options={options} allowClear showSearch optionFilterProp="label" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Throttle (pulls need ≥ 80 %)" name="throttleId">
              <Select options={options} allowClear showSearch optionFilterProp="label" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="Gear channel" name="gearId">
              <Select options={options} allowClear showSearch optionFilterProp="label" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item label="…or the gear of the pull" name="gear">
              <InputNumber min={1} max={12} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" onClick={() => void calculate()} loading={running}>
            Calculate
          </Button>
          {onSave && (
            <Button onClick={save} loading={saving}>
              Save vehicle profile
            </Button>
          )}
          {onSave && keptWith && (
            <Typography.Text type="secondary" data-testid="dyno-kept-with">
              {keptWith}
            </Typography.Text>
          )}
        </Space>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
      {pulls && pulls.length === 0 && (
        <Empty description="No pull found: a pull is a steady rpm rise of at least 1.5 s and 1000 rpm (with the throttle open, when a throttle channel is chosen)." />
      )}
      {pulls && pulls.length > 0 && pull && (
        <>
          <Space wrap>
            <Select
              value={selected}
              onChange={setSelected}
              aria-label="Pull"
              options={pulls.map((p, i) => ({
                value: i,
                label: `Pull ${i + 1}: ${p.startTime.toFixed(1)}–${p.endTime.toFixed(1)} s${p.gear ? `, gear ${p.gear}` : ""}`,
              }))}
              style={{ minWidth: 260 }}
            />
            {chosen && (
              <Typography.Text type="secondary" data-testid="dyno-chosen">
                {chosenIndex < 0
                  ? "The pull chosen in the list is not one the dyno finds."
                  : selected === chosenIndex
                    ? "The pull chosen in the list."
                    : null}
              </Typography.Text>
            )}
            <Typography.Text data-testid="dyno-peak">
              Peak {pull.peakCrankKw.crankKw.toFixed(0)} kW ({(pull.peakCrankKw.crankKw / KW_PER_HP).toFixed(0)} hp) at{" "}
              {pull.peakCrankKw.rpm} rpm, {pull.peakCrankNm.crankNm.toFixed(0)} Nm at {pull.peakCrankNm.rpm} rpm (crank)
            </Typography.Text>
          </Space>
          <SizedBox style={{ width: "100%", height: 320 }}>
            <ResponsiveContainer>
              <LineChart data={pull.points} margin={{ top: 8, right: 24, bottom: 8, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="rpm" type="number" domain={["dataMin", "dataMax"]} unit=" rpm" />
                <YAxis yAxisId="power" unit=" kW" />
                <YAxis yAxisId="torque" orientation="right" unit=" Nm" />
                <Tooltip formatter={(value) => (typeof value === "number" ? value.toFixed(1) : String(value))} />
                <Legend />
                <Line
                  yAxisId="power"
                  dataKey="crankKw"
                  name="Crank power"
                  stroke="#e8384f"
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  yAxisId="power"
                  dataKey="wheelKw"
                  name="Wheel power"
                  stroke="#f39c12"
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  yAxisId="torque"
                  dataKey="crankNm"
                  name="Crank torque"
                  stroke="#2f7ed8"
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  yAxisId="torque"
                  dataKey="wheelNm"
                  name="Wheel torque"
                  stroke="#16a5a5"
                  dot={false}
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </SizedBox>
        </>
      )}
    </Flex>
  );
}
