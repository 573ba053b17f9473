/** Every list route under hostile query values, on postgres (the fuzz itself: ./support/list-fuzz.ts). */
import { describeListFuzz } from "./support/list-fuzz";

describeListFuzz("postgres");
