/** Every list route under hostile query values, on pglite (the fuzz itself: ./support/list-fuzz.ts). */
import { describeListFuzz } from "./support/list-fuzz";

describeListFuzz("pglite");
