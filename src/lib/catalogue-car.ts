/** A car as the catalogue names it, the same words on the vehicle card, the checkout and the receipt. */
export interface CatalogueCar {
  make: string;
  model: string;
  engine: string;
}

/** "Demo Motors Hatchback · 2.0 turbo", or what to say when the catalogue does not know the car. */
export const catalogueCarText = (car: CatalogueCar | null) =>
  car ? `${car.make} ${car.model} · ${car.engine}` : "not in the catalogue";
