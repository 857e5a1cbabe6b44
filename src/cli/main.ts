#!/usr/bin/env node
/**
 * The CLI's entry: turns on Node's module compile cache before anything else loads, then runs the
 * program. The cache keeps V8's compiled code of every module on disk, so later starts skip compiling
 * (https://nodejs.org/api/module.html#moduleenablecompilecachecachedir; Node 22.1 and later, a no-op
 * on Node 20; NODE_DISABLE_COMPILE_CACHE=1 turns it off). It must come before the program's own
 * imports: a static import would be loaded first, so the program is imported after it.
 */
import module from "node:module";

/** Node 20's types do not declare it; on Node 20 it is absent. */
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

await import("./program.js");
