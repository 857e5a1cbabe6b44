import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
// In this order: each file's rules follow those they build on (narrow screens last).
import "./styles/layout.css";
import "./styles/forms.css";
import "./styles/results.css";
import "./styles/integrations.css";
import "./styles/pickers.css";
import "./styles/narrow.css";

createRoot(document.getElementById("root") as HTMLElement).render(<App />);
