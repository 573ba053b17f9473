import { useParams } from "react-router";
import { VehicleHome } from "../../components/vehicle/vehicle-home";

export function ManagedDevicesShow() {
  const { deviceId } = useParams();
  return <VehicleHome vehicleId={deviceId ?? ""} />;
}
