// `node --import ./tests/js/static-paths.mjs`: the pages' absolute imports (/static/js/kit.js,
// as the server serves src/nemeton/web at /static) resolve to the package's files.
import { register } from "node:module";

register(new URL("./static-resolve.mjs", import.meta.url));
