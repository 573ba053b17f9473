/**
 * Refine's layout, its sider and its list hooks read antd's breakpoints through `Grid.useBreakpoint`,
 * which answers nothing at the first render and renders its component again once its layout effect
 * has measured the window, in the same task. On a phone Refine's sider took the missing answer for a
 * desktop: it mounted the whole desktop menu (every item with its access check, icon and tooltip),
 * and then swapped it for the phone's drawer before the first paint. Pointed at `useScreens`, which
 * reads the window's width at the first render, they draw the phone's layout at once. antd's own
 * components import their hook directly and keep it.
 */
import { Grid } from "antd";
import { useScreens } from "./snapshot-screen";

Grid.useBreakpoint = useScreens;
