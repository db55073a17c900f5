/**
 * How every audience is made (`ClientApp`, `ServerApp`, `AdminApp`,
 * `ProjectOwnerApp`): credentials plus the modules it mounts, each module a
 * function of the audience's scope that answers an object of methods. The
 * class only puts those methods on the instance; audiences never extend one
 * another.
 */

/**
 * A base class whose constructor puts the members of `modules` on the
 * instance, typed as `M`: `class ServerApp extends mounted<ServerAppModules>()`.
 */
export function mounted<M extends object>(): new (modules: M) => M {
  return class Mounted {
    constructor(modules: M) {
      Object.assign(this, modules);
    }
  } as new (
    modules: M,
  ) => M;
}
