// The resolve hook behind static-paths.mjs.
const WEB = new URL("../../src/nemeton/web/", import.meta.url);

export async function resolve(specifier, context, next) {
  if (specifier.startsWith("/static/")) return next(new URL(specifier.slice("/static/".length), WEB).href, context);
  return next(specifier, context);
}
