/** A visitor's contact message as the public site's form sends it. */
export const contactMessage = {
  name: "Sam Driver",
  email: "sam@example.test",
  topic: "vehicle-support",
  vehicle: "Golf R Mk7 2016",
  message: "Is the MQB Simos 18 supported?",
};
