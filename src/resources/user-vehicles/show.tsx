import { useParams } from "react-router";
import { VehicleHome } from "../../components/vehicle/vehicle-home";

export function MyDeviceShow() {
  const { id } = useParams();
  return <VehicleHome vehicleId={id ?? ""} />;
}
